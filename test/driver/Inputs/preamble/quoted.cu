#include "local.h"
#include <cstdio>
int main() {
  float *p = nullptr;
  clear(p);
}
