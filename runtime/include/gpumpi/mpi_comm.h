/* Communicators, groups, topologies, error handlers, attributes and the
 * environment's extras (part of mpi.h). Handles are small ints local to the
 * calling rank. */
#ifndef GPUMPI_MPI_COMM_H
#define GPUMPI_MPI_COMM_H

#define MPI_MAX_OBJECT_NAME 128
/* MPICH's is 8192; a user's buffer of this size lives on a GPU thread's
 * small stack, so ours is modest (our string is far shorter). */
#define MPI_MAX_LIBRARY_VERSION_STRING 256

/* Comparison results. */
#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

/* Groups: 0 and 1 are predefined, the rest index the rank's own table. */
#define MPI_GROUP_NULL ((MPI_Group)0)
#define MPI_GROUP_EMPTY ((MPI_Group)1)

/* Topologies. */
#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3

/* MPI_Comm_split_type: every rank shares the one device. HW_GUIDED knows
 * "mpi_shared_memory" alone; HW_UNGUIDED finds no smaller level. */
#define MPI_COMM_TYPE_SHARED 1
#define MPI_COMM_TYPE_HW_UNGUIDED 2
#define MPI_COMM_TYPE_HW_GUIDED 3

/* Attribute keys. The predefined ones are attached to every communicator. */
#define MPI_KEYVAL_INVALID 0
#define MPI_TAG_UB 1
#define MPI_HOST 2
#define MPI_IO 3
#define MPI_WTIME_IS_GLOBAL 4
#define MPI_UNIVERSE_SIZE 5
#define MPI_APPNUM 6
#define MPI_LASTUSEDCODE 7

typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                                        void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state);
typedef MPI_Comm_copy_attr_function MPI_Copy_function;
typedef MPI_Comm_delete_attr_function MPI_Delete_function;
/* No "...": MPI's C binding has one but passes nothing through it, and
 * nvcc miscompiles variadic functions called through pointers; the
 * converter drops it from the program's handlers (rewrite_errhandlers.c). */
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *error_code);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef MPI_Comm_errhandler_function MPI_Handler_function;

/* The predefined callbacks: a null copy function copies nothing, a null
 * delete function does nothing; MPI_COMM_DUP_FN copies the value. */
GPUMPI_FN int gp_comm_dup_fn(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                             void *attribute_val_out, int *flag);
#define MPI_COMM_NULL_COPY_FN ((MPI_Comm_copy_attr_function *)0)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function *)0)
#define MPI_COMM_DUP_FN ((MPI_Comm_copy_attr_function *)gp_comm_dup_fn)
#define MPI_NULL_COPY_FN ((MPI_Copy_function *)0)
#define MPI_NULL_DELETE_FN ((MPI_Delete_function *)0)
#define MPI_DUP_FN ((MPI_Copy_function *)gp_comm_dup_fn)

/* Communicators. */
GPUMPI_FN int MPI_Comm_rank(MPI_Comm comm, int *rank);
GPUMPI_FN int MPI_Comm_size(MPI_Comm comm, int *size);
GPUMPI_FN int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
GPUMPI_FN int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
GPUMPI_FN int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm);
GPUMPI_FN int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
GPUMPI_FN int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm);
GPUMPI_FN int MPI_Comm_free(MPI_Comm *comm);
/* MPI_Comm_free after the rank's pending communication on it (comm_disconnect.cu); collective. */
GPUMPI_FN int MPI_Comm_disconnect(MPI_Comm *comm);
GPUMPI_FN int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result);
GPUMPI_FN int MPI_Comm_group(MPI_Comm comm, MPI_Group *group);
GPUMPI_FN int MPI_Comm_set_name(MPI_Comm comm, const char *comm_name);
GPUMPI_FN int MPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen);
GPUMPI_FN int MPI_Comm_test_inter(MPI_Comm comm, int *flag);

/* Groups. */
GPUMPI_FN int MPI_Group_size(MPI_Group group, int *size);
GPUMPI_FN int MPI_Group_rank(MPI_Group group, int *rank);
GPUMPI_FN int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
GPUMPI_FN int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
GPUMPI_FN int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
GPUMPI_FN int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
GPUMPI_FN int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
GPUMPI_FN int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
GPUMPI_FN int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
GPUMPI_FN int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]);
GPUMPI_FN int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result);
GPUMPI_FN int MPI_Group_free(MPI_Group *group);

/* Cartesian topologies. */
GPUMPI_FN int MPI_Dims_create(int nnodes, int ndims, int dims[]);
GPUMPI_FN int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                              MPI_Comm *comm_cart);
GPUMPI_FN int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
GPUMPI_FN int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank);
GPUMPI_FN int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest);
GPUMPI_FN int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm);
GPUMPI_FN int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]);
GPUMPI_FN int MPI_Cartdim_get(MPI_Comm comm, int *ndims);
GPUMPI_FN int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank);
GPUMPI_FN int MPI_Topo_test(MPI_Comm comm, int *status);

/* Error handlers. */
GPUMPI_FN int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn,
                                         MPI_Errhandler *errhandler);
GPUMPI_FN int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
GPUMPI_FN int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler);
GPUMPI_FN int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode);
GPUMPI_FN int MPI_Errhandler_free(MPI_Errhandler *errhandler);
/* MPI-1 spellings. */
GPUMPI_FN int MPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler);
GPUMPI_FN int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler);
GPUMPI_FN int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler);

/* Attributes. */
GPUMPI_FN int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                                     MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                                     void *extra_state);
GPUMPI_FN int MPI_Comm_free_keyval(int *comm_keyval);
GPUMPI_FN int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val);
GPUMPI_FN int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag);
GPUMPI_FN int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval);
/* MPI-1 spellings. */
GPUMPI_FN int MPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                                void *extra_state);
GPUMPI_FN int MPI_Keyval_free(int *keyval);
GPUMPI_FN int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val);
GPUMPI_FN int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
GPUMPI_FN int MPI_Attr_delete(MPI_Comm comm, int keyval);

/* ---- issue 9 part B (mpi3): Info objects, communicator hints, error
 * classes and codes of the program's own, graph topologies and the
 * neighbourhood collectives ---- */
#define MPI_INFO_ENV ((MPI_Info)1)
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024
GPUMPI_FN int MPI_Info_create(MPI_Info *info);
GPUMPI_FN int MPI_Info_set(MPI_Info info, const char *key, const char *value);
GPUMPI_FN int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag);
GPUMPI_FN int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag);
GPUMPI_FN int MPI_Info_get_nkeys(MPI_Info info, int *nkeys);
GPUMPI_FN int MPI_Info_get_nthkey(MPI_Info info, int n, char *key);
GPUMPI_FN int MPI_Info_delete(MPI_Info info, const char *key);
GPUMPI_FN int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
GPUMPI_FN int MPI_Info_free(MPI_Info *info);
/* MPI-4.0. */
GPUMPI_FN int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag);
GPUMPI_FN int MPI_Info_create_env(int argc, char *argv[], MPI_Info *info);

GPUMPI_FN int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
/* newcomm is usable once the request completes. */
GPUMPI_FN int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
GPUMPI_FN int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request);
GPUMPI_FN int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
GPUMPI_FN int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used);

/* Intercommunicators are not provided: these fail with
 * MPI_ERR_UNSUPPORTED_OPERATION (create, merge) or MPI_ERR_COMM (remote). */
GPUMPI_FN int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
                                   int tag, MPI_Comm *newintercomm);
GPUMPI_FN int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm);
GPUMPI_FN int MPI_Comm_remote_size(MPI_Comm comm, int *size);
GPUMPI_FN int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group);

GPUMPI_FN int MPI_Add_error_class(int *errorclass);
GPUMPI_FN int MPI_Add_error_code(int errorclass, int *errorcode);
GPUMPI_FN int MPI_Add_error_string(int errorcode, const char *string);

#define MPI_UNWEIGHTED ((int *)1)
#define MPI_WEIGHTS_EMPTY ((int *)2)
GPUMPI_FN int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                               MPI_Comm *comm_graph);
GPUMPI_FN int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
GPUMPI_FN int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]);
GPUMPI_FN int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
GPUMPI_FN int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]);
GPUMPI_FN int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank);
GPUMPI_FN int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                             const int sourceweights[], int outdegree, const int destinations[],
                                             const int destweights[], MPI_Info info, int reorder,
                                             MPI_Comm *comm_dist_graph);
GPUMPI_FN int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                    const int destinations[], const int weights[], MPI_Info info, int reorder,
                                    MPI_Comm *comm_dist_graph);
GPUMPI_FN int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted);
GPUMPI_FN int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                                       int maxoutdegree, int destinations[], int destweights[]);

/* Neighbourhood collectives on Cartesian, graph and distributed graph
 * communicators. */
GPUMPI_FN int MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
GPUMPI_FN int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                      MPI_Comm comm);
GPUMPI_FN int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
GPUMPI_FN int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                     MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                     const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
GPUMPI_FN int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                     const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
/* Nonblocking (MPI-3.0; coll_nonblocking.cu). */
GPUMPI_FN int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
GPUMPI_FN int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                       const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                       MPI_Comm comm, MPI_Request *request);
GPUMPI_FN int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
GPUMPI_FN int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                      MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                      const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                      MPI_Request *request);
GPUMPI_FN int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                      const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                      MPI_Request *request);
/* Persistent (MPI-4.0; coll_persistent.cu). */
GPUMPI_FN int MPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                          MPI_Request *request);
GPUMPI_FN int MPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                           const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                           MPI_Comm comm, MPI_Info info, MPI_Request *request);
GPUMPI_FN int MPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                         int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                         MPI_Request *request);
GPUMPI_FN int MPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                          MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                          const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                          MPI_Request *request);
GPUMPI_FN int MPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                          const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                          MPI_Info info, MPI_Request *request);
/* ---- end of issue 9 part B block ---- */

/* Environment. */
GPUMPI_FN int MPI_Error_string(int errorcode, char *string, int *resultlen);
GPUMPI_FN int MPI_Error_class(int errorcode, int *errorclass);
GPUMPI_FN int MPI_Query_thread(int *provided);
GPUMPI_FN int MPI_Is_thread_main(int *flag);
GPUMPI_VARIADIC_FN int MPI_Pcontrol(const int level, ...);
GPUMPI_FN int MPI_Get_library_version(char *version, int *resultlen);

#endif
