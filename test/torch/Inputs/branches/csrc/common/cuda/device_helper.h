#pragma once
#define DEVICE_HELPER_FOR_CUDA 1
