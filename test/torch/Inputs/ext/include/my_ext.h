#pragma once
#ifndef TILE
#error "TILE comes from setup.py's define_macros"
#endif
