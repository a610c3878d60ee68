#pragma once
#define PKG_COMMON_FOUND 1
