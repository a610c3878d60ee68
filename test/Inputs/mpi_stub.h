// The few declarations of a CUDA-aware MPI's mpi.h that the tests use, with
// its types and names (MPICH-style handles).
#pragma once
typedef int MPI_Datatype;
typedef int MPI_Comm;
typedef int MPI_Op;
typedef struct MPI_Status {
  int MPI_SOURCE, MPI_TAG, MPI_ERROR;
} MPI_Status;
typedef int MPI_Request;
#define MPI_FLOAT ((MPI_Datatype)0x4c00040a)
#define MPI_COMM_WORLD ((MPI_Comm)0x44000000)
#define MPI_SUM ((MPI_Op)0x58000003)
#define MPI_STATUS_IGNORE ((MPI_Status *)1)
extern "C" {
int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest,
             int tag, MPI_Comm comm);
int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest,
              int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
             MPI_Comm comm, MPI_Status *status);
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Wait(MPI_Request *request, MPI_Status *status);
}
