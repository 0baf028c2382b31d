/* Parts of MPI gpumpi does not provide (part of mpi.h): one-sided
 * communication (MPI_Win_*, MPI_Put, MPI_Get, ...), MPI-IO (MPI_File_*) and
 * dynamic processes (MPI_Comm_spawn, ...). Their types and handles are
 * declared so a program's declarations still parse, and every call is
 * marked unavailable: gpumpicc stops at the call with
 *   error: 'MPI_Win_create' is unavailable: gpumpi does not support one-sided communication
 * instead of an undefined reference at link time. (The converter parses
 * the user's C with libclang, which honours `unavailable`; g++ and nvcc,
 * which see converted code only, get gcc's `error` attribute, which also
 * stops a build at a call that remains.) */
#ifndef GPUMPI_MPI_UNSUPPORTED_H
#define GPUMPI_MPI_UNSUPPORTED_H

#if defined(__clang__)
#define GP_UNSUPPORTED(what) __attribute__((unavailable("gpumpi does not support " what)))
#elif defined(__GNUC__) && !defined(__CUDACC__)
#define GP_UNSUPPORTED(what) __attribute__((error("gpumpi does not support " what)))
#else
#define GP_UNSUPPORTED(what) __attribute__((deprecated("gpumpi does not support " what)))
#endif
#define GP_ONE_SIDED GP_UNSUPPORTED("one-sided communication (MPI_Win and RMA calls)")
#define GP_MPI_IO GP_UNSUPPORTED("MPI-IO (MPI_File calls); use the C library's stdio, which gpumpi provides")
#define GP_DYNAMIC GP_UNSUPPORTED("dynamic processes (every rank is a GPU thread started at launch)")

typedef int MPI_Win;
typedef int MPI_File;
#define MPI_WIN_NULL ((MPI_Win)0)
#define MPI_FILE_NULL ((MPI_File)0)
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384
#define MPI_MODE_RDONLY 2
#define MPI_MODE_RDWR 8
#define MPI_MODE_WRONLY 4
#define MPI_MODE_CREATE 1
#define MPI_MODE_EXCL 64
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN 32
#define MPI_MODE_APPEND 128
#define MPI_MODE_SEQUENTIAL 256
#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604
#define MPI_ARGV_NULL ((char **)0)
#define MPI_ARGVS_NULL ((char ***)0)
#define MPI_ERRCODES_IGNORE ((int *)0)

/* one-sided communication */
GP_ONE_SIDED GPUMPI_FN int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                                          MPI_Win *win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                            MPI_Win *win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                                                   void *baseptr, MPI_Win *win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_detach(MPI_Win win, const void *base);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_free(MPI_Win *win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_fence(int assert, MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_start(MPI_Group group, int assert, MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_complete(MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_post(MPI_Group group, int assert, MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_wait(MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_test(MPI_Win win, int *flag);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_unlock(int rank, MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_lock_all(int assert, MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_unlock_all(MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_flush(int rank, MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_flush_all(MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_flush_local(int rank, MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_flush_local_all(MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_sync(MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_get_group(MPI_Win win, MPI_Group *group);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler);
GP_ONE_SIDED GPUMPI_FN int MPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag);
GP_ONE_SIDED GPUMPI_FN int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                   int target_rank, MPI_Aint target_disp, int target_count,
                                   MPI_Datatype target_datatype, MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                                   MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                          int target_rank, MPI_Aint target_disp, int target_count,
                                          MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                              void *result_addr, int result_count, MPI_Datatype result_datatype,
                                              int target_rank, MPI_Aint target_disp, int target_count,
                                              MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                                            int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                                                MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                                                MPI_Win win);
GP_ONE_SIDED GPUMPI_FN int MPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                    int target_rank, MPI_Aint target_disp, int target_count,
                                    MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request);
GP_ONE_SIDED GPUMPI_FN int MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                                    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                                    MPI_Request *request);

/* MPI-IO */
GP_MPI_IO GPUMPI_FN int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh);
GP_MPI_IO GPUMPI_FN int MPI_File_close(MPI_File *fh);
GP_MPI_IO GPUMPI_FN int MPI_File_delete(const char *filename, MPI_Info info);
GP_MPI_IO GPUMPI_FN int MPI_File_set_size(MPI_File fh, MPI_Offset size);
GP_MPI_IO GPUMPI_FN int MPI_File_get_size(MPI_File fh, MPI_Offset *size);
GP_MPI_IO GPUMPI_FN int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                                          const char *datarep, MPI_Info info);
GP_MPI_IO GPUMPI_FN int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence);
GP_MPI_IO GPUMPI_FN int MPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
GP_MPI_IO GPUMPI_FN int MPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                       MPI_Status *status);
GP_MPI_IO GPUMPI_FN int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                          MPI_Status *status);
GP_MPI_IO GPUMPI_FN int MPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                           MPI_Status *status);
GP_MPI_IO GPUMPI_FN int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
                                         MPI_Status *status);
GP_MPI_IO GPUMPI_FN int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                          MPI_Datatype datatype, MPI_Status *status);
GP_MPI_IO GPUMPI_FN int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                             MPI_Datatype datatype, MPI_Status *status);
GP_MPI_IO GPUMPI_FN int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                              MPI_Datatype datatype, MPI_Status *status);
GP_MPI_IO GPUMPI_FN int MPI_File_sync(MPI_File fh);

/* dynamic processes */
GP_DYNAMIC GPUMPI_FN int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                                        MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]);
GP_DYNAMIC GPUMPI_FN int MPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                                                 const int array_of_maxprocs[], const MPI_Info array_of_info[],
                                                 int root, MPI_Comm comm, MPI_Comm *intercomm,
                                                 int array_of_errcodes[]);
GP_DYNAMIC GPUMPI_FN int MPI_Comm_get_parent(MPI_Comm *parent);
GP_DYNAMIC GPUMPI_FN int MPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                                          MPI_Comm *newcomm);
GP_DYNAMIC GPUMPI_FN int MPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                                         MPI_Comm *newcomm);
GP_DYNAMIC GPUMPI_FN int MPI_Open_port(MPI_Info info, char *port_name);
GP_DYNAMIC GPUMPI_FN int MPI_Close_port(const char *port_name);
GP_DYNAMIC GPUMPI_FN int MPI_Comm_join(int fd, MPI_Comm *intercomm);

#undef GP_ONE_SIDED
#undef GP_MPI_IO
#undef GP_DYNAMIC
#undef GP_UNSUPPORTED

#endif
