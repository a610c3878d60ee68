#pragma once
#define EXTRA_FOUND 1
