#include <cstdio>
#include <helper.h>
int main() {
  float *p;
  allocate(&p);
  printf("%p\n", (void *)p);
  cudaFree(p);
}
