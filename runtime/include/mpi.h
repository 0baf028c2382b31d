/* gpumpi's public MPI header. Plain C: the converter parses user code
 * against it, and the converted code includes it through <mpi.h.cuh>.
 * Names, constants and error classes follow the MPI standard. */
#ifndef GPUMPI_MPI_H
#define GPUMPI_MPI_H

#include "gpumpi/platform.h"

#define MPI_VERSION 3
#define MPI_SUBVERSION 1

typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef long MPI_Aint;
typedef long long MPI_Count;
typedef long long MPI_Offset;
typedef int MPI_Request;
typedef int MPI_Group;
typedef int MPI_Errhandler;
typedef int MPI_Info;
#define MPI_INFO_NULL ((MPI_Info)0)

typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int gp_cancelled;   /* private */
    MPI_Count gp_count_bytes; /* private: bytes received (MPI_Count: MPI_Status_set_elements_x) */
} MPI_Status;

/* Communicators: the context id is the handle. */
#define MPI_COMM_NULL ((MPI_Comm)0)
#define MPI_COMM_WORLD ((MPI_Comm)1)
#define MPI_COMM_SELF ((MPI_Comm)2)

/* Datatype and operation handles: gpumpi/mpi_types.h. */

#define MPI_ANY_SOURCE (-2)
#define MPI_ANY_TAG (-1)
#define MPI_PROC_NULL (-3)
#define MPI_ROOT (-4)
#define MPI_UNDEFINED (-32766)
#define MPI_TAG_UB_VALUE 0x7fffffff

#define MPI_REQUEST_NULL ((MPI_Request)0)
#define MPI_BSEND_OVERHEAD 0
#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)
#define MPI_IN_PLACE ((void *)-1)

#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING 256

/* Error classes (MPI standard names; values are ours). */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_GROUP 9
#define MPI_ERR_OP 10
#define MPI_ERR_TOPOLOGY 11
#define MPI_ERR_DIMS 12
#define MPI_ERR_ARG 13
#define MPI_ERR_UNKNOWN 14
#define MPI_ERR_TRUNCATE 15
#define MPI_ERR_OTHER 16
#define MPI_ERR_INTERN 17
#define MPI_ERR_PENDING 18
#define MPI_ERR_IN_STATUS 19
#define MPI_ERR_NO_MEM 20
#define MPI_ERR_KEYVAL 21
/* ---- issue 9 part B (helper mpi3): Info, intercommunicators ---- */
#define MPI_ERR_INFO 22
#define MPI_ERR_INFO_KEY 23
#define MPI_ERR_INFO_VALUE 24
#define MPI_ERR_INFO_NOKEY 25
#define MPI_ERR_UNSUPPORTED_OPERATION 26 /* a call gpumpi does not provide (intercommunicators...) */
/* ---- end of issue 9 part B block ---- */
#define MPI_ERR_SESSION 27 /* MPI-4.0: an invalid session handle */
#define MPI_ERR_LASTCODE 64

/* Error handlers. */
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)1)
#define MPI_ERRORS_RETURN ((MPI_Errhandler)2)

#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

GPUMPI_FN int MPI_Init(int *argc, char ***argv);
GPUMPI_FN int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
GPUMPI_FN int MPI_Initialized(int *flag);
GPUMPI_FN int MPI_Finalize(void);
GPUMPI_FN int MPI_Finalized(int *flag);
GPUMPI_FN int MPI_Abort(MPI_Comm comm, int errorcode);
GPUMPI_FN int MPI_Get_processor_name(char *name, int *resultlen);
GPUMPI_FN int MPI_Get_version(int *version, int *subversion);
GPUMPI_FN double MPI_Wtime(void);
GPUMPI_FN double MPI_Wtick(void);

GPUMPI_FN int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
GPUMPI_FN int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                       MPI_Status *status);
GPUMPI_FN int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count);
GPUMPI_FN int MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count);
GPUMPI_FN int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
GPUMPI_FN int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
GPUMPI_FN int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
GPUMPI_FN int MPI_Buffer_attach(void *buffer, int size);
GPUMPI_FN int MPI_Buffer_detach(void *buffer_addr, int *size);
GPUMPI_FN int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
GPUMPI_FN int MPI_Free_mem(void *base);
GPUMPI_FN int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                        MPI_Request *request);
GPUMPI_FN int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                         MPI_Request *request);
GPUMPI_FN int MPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                         MPI_Request *request);
GPUMPI_FN int MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                         MPI_Request *request);
GPUMPI_FN int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                        MPI_Request *request);
GPUMPI_FN int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                            MPI_Request *request);
GPUMPI_FN int MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                             MPI_Request *request);
GPUMPI_FN int MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                             MPI_Request *request);
GPUMPI_FN int MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                             MPI_Request *request);
GPUMPI_FN int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                            MPI_Request *request);
GPUMPI_FN int MPI_Start(MPI_Request *request);
GPUMPI_FN int MPI_Startall(int count, MPI_Request requests[]);
GPUMPI_FN int MPI_Wait(MPI_Request *request, MPI_Status *status);
GPUMPI_FN int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
GPUMPI_FN int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]);
GPUMPI_FN int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[]);
GPUMPI_FN int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status);
GPUMPI_FN int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status);
GPUMPI_FN int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                           MPI_Status statuses[]);
GPUMPI_FN int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                           MPI_Status statuses[]);
GPUMPI_FN int MPI_Request_free(MPI_Request *request);
GPUMPI_FN int MPI_Cancel(MPI_Request *request);
GPUMPI_FN int MPI_Test_cancelled(const MPI_Status *status, int *flag);
GPUMPI_FN int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
GPUMPI_FN int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
GPUMPI_FN int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                           MPI_Comm comm, MPI_Status *status);
GPUMPI_FN int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                                   int recvtag, MPI_Comm comm, MPI_Status *status);
/* MPI-4.0: one request for both halves (isendrecv.cu); its status is the receive's. */
GPUMPI_FN int MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                            MPI_Comm comm, MPI_Request *request);
GPUMPI_FN int MPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                                    int recvtag, MPI_Comm comm, MPI_Request *request);
/* MPI-4.0 partitioned communication (partitioned.cu): persistent requests
 * started with MPI_Start(all), completed with the Wait/Test family. */
GPUMPI_FN int MPI_Psend_init(const void *buf, int partitions, int count, MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Info info, MPI_Request *request);
GPUMPI_FN int MPI_Precv_init(void *buf, int partitions, int count, MPI_Datatype datatype, int source, int tag,
                             MPI_Comm comm, MPI_Info info, MPI_Request *request);
GPUMPI_FN int MPI_Pready(int partition, MPI_Request request);
GPUMPI_FN int MPI_Pready_range(int partition_low, int partition_high, MPI_Request request);
GPUMPI_FN int MPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request);
GPUMPI_FN int MPI_Parrived(MPI_Request request, int partition, int *flag);

/* ---- matched probes, request and status extras (MPI-3; mprobe.cu, requests.cu, status.cu) ---- */
typedef int MPI_Message;
#define MPI_MESSAGE_NULL ((MPI_Message)0)
#define MPI_MESSAGE_NO_PROC ((MPI_Message)-1)
GPUMPI_FN int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status);
GPUMPI_FN int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status);
GPUMPI_FN int MPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status);
GPUMPI_FN int MPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request);
GPUMPI_FN int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status);
GPUMPI_FN int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count);
GPUMPI_FN int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count);
GPUMPI_FN int MPI_Status_set_cancelled(MPI_Status *status, int flag);
/* Generalized requests (MPI-4.0 13.2; grequest.cu). */
typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);
GPUMPI_FN int MPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                                 MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request);
GPUMPI_FN int MPI_Grequest_complete(MPI_Request request);

/* The rest of the API, one header per part of the runtime. */
#include "gpumpi/mpi_coll.h"
#include "gpumpi/mpi_comm.h"
#include "gpumpi/mpi_types.h"
#include "gpumpi/mpi_session.h"
#include "gpumpi/mpi_handle_convert.h"
#include "gpumpi/mpi_large_count.h"
/* issue 9 part B (mpi3): calls outside gpumpi's scope fail at build time */
#include "gpumpi/mpi_unsupported.h"

#endif
