// A project header named like the toolkit's driver API header.
#ifndef OWN_CUDA_H
#define OWN_CUDA_H
void own_setup(int device);
#endif
