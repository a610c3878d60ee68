#include "a/level3.h"
