#pragma once
#define DEVICE_HELPER_FOR_MLU 1
