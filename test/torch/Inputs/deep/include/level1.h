#include "level2.h"
