#ifndef PREAMBLE_NDEBUG_H
#define PREAMBLE_NDEBUG_H
#define NDEBUG
#endif
