#include "b/level4.h"
