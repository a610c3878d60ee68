#include "level5.h"
