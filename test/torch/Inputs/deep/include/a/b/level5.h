#pragma once
#include <c10/macros/Macros.h>
