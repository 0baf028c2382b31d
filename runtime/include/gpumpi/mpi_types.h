/* Datatypes, packing and reduction operations (part of mpi.h).
 *
 * Predefined datatype and operation handles are compile-time integer
 * constants (programs use them in static initializers and switch cases).
 * Derived datatypes and user operations get handles from the calling
 * rank's own table: each rank makes its own. */
#ifndef GPUMPI_MPI_TYPES_H
#define GPUMPI_MPI_TYPES_H

#define MPI_DATATYPE_NULL ((MPI_Datatype)0)
#define MPI_CHAR ((MPI_Datatype)1)
#define MPI_SIGNED_CHAR ((MPI_Datatype)2)
#define MPI_UNSIGNED_CHAR ((MPI_Datatype)3)
#define MPI_BYTE ((MPI_Datatype)4)
#define MPI_SHORT ((MPI_Datatype)5)
#define MPI_UNSIGNED_SHORT ((MPI_Datatype)6)
#define MPI_INT ((MPI_Datatype)7)
#define MPI_UNSIGNED ((MPI_Datatype)8)
#define MPI_LONG ((MPI_Datatype)9)
#define MPI_UNSIGNED_LONG ((MPI_Datatype)10)
#define MPI_LONG_LONG_INT ((MPI_Datatype)11)
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG ((MPI_Datatype)12)
#define MPI_FLOAT ((MPI_Datatype)13)
#define MPI_DOUBLE ((MPI_Datatype)14)
/* On the GPU, converted code's long double is a double (gp_ldouble in
 * gpumpi/platform.h). */
#define MPI_LONG_DOUBLE ((MPI_Datatype)15)
#define MPI_INT8_T ((MPI_Datatype)16)
#define MPI_INT16_T ((MPI_Datatype)17)
#define MPI_INT32_T ((MPI_Datatype)18)
#define MPI_INT64_T ((MPI_Datatype)19)
#define MPI_UINT8_T ((MPI_Datatype)20)
#define MPI_UINT16_T ((MPI_Datatype)21)
#define MPI_UINT32_T ((MPI_Datatype)22)
#define MPI_UINT64_T ((MPI_Datatype)23)
#define MPI_C_BOOL ((MPI_Datatype)24)
#define MPI_WCHAR ((MPI_Datatype)25)
#define MPI_PACKED ((MPI_Datatype)26)
#define MPI_AINT ((MPI_Datatype)27)
#define MPI_OFFSET ((MPI_Datatype)28)
#define MPI_COUNT ((MPI_Datatype)29)
#define MPI_C_FLOAT_COMPLEX ((MPI_Datatype)30)
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX ((MPI_Datatype)31)
#define MPI_C_LONG_DOUBLE_COMPLEX ((MPI_Datatype)32)
/* Value-index pairs for MPI_MAXLOC and MPI_MINLOC: laid out as the C
 * struct {T v; int i;}, padding included. */
#define MPI_FLOAT_INT ((MPI_Datatype)33)
#define MPI_DOUBLE_INT ((MPI_Datatype)34)
#define MPI_LONG_INT ((MPI_Datatype)35)
#define MPI_2INT ((MPI_Datatype)36)
#define MPI_SHORT_INT ((MPI_Datatype)37)
#define MPI_LONG_DOUBLE_INT ((MPI_Datatype)38)
/* MPI-1's bound markers (removed in MPI-3.0, still in old codes): in
 * MPI_Type_struct they set the lb or ub of the new type. */
#define MPI_LB ((MPI_Datatype)39)
#define MPI_UB ((MPI_Datatype)40)
/* Fortran's named types, usable from C for data Fortran code made, with
 * the sizes gfortran gives them. There is no 16-byte Fortran real,
 * complex or integer on the device (no quad precision, no 128-bit
 * integer): MPI_REAL16, MPI_COMPLEX32 and MPI_INTEGER16 are
 * MPI_DATATYPE_NULL, as the standard allows for types a system lacks. */
#define MPI_CHARACTER ((MPI_Datatype)41)
#define MPI_LOGICAL ((MPI_Datatype)42)
#define MPI_INTEGER ((MPI_Datatype)43)
#define MPI_REAL ((MPI_Datatype)44)
#define MPI_DOUBLE_PRECISION ((MPI_Datatype)45)
#define MPI_COMPLEX ((MPI_Datatype)46)
#define MPI_DOUBLE_COMPLEX ((MPI_Datatype)47)
#define MPI_INTEGER1 ((MPI_Datatype)48)
#define MPI_INTEGER2 ((MPI_Datatype)49)
#define MPI_INTEGER4 ((MPI_Datatype)50)
#define MPI_INTEGER8 ((MPI_Datatype)51)
#define MPI_REAL4 ((MPI_Datatype)52)
#define MPI_REAL8 ((MPI_Datatype)53)
#define MPI_COMPLEX8 ((MPI_Datatype)54)
#define MPI_COMPLEX16 ((MPI_Datatype)55)
#define MPI_2INTEGER ((MPI_Datatype)56)
#define MPI_2REAL ((MPI_Datatype)57)
#define MPI_2DOUBLE_PRECISION ((MPI_Datatype)58)
#define MPI_INTEGER16 MPI_DATATYPE_NULL
#define MPI_REAL16 MPI_DATATYPE_NULL
#define MPI_COMPLEX32 MPI_DATATYPE_NULL
/* C++'s types, for C++ code and data C++ code made. */
#define MPI_CXX_BOOL ((MPI_Datatype)59)
#define MPI_CXX_FLOAT_COMPLEX ((MPI_Datatype)60)
#define MPI_CXX_DOUBLE_COMPLEX ((MPI_Datatype)61)
#define MPI_CXX_LONG_DOUBLE_COMPLEX ((MPI_Datatype)62)
#define GPUMPI_NUM_BASIC_TYPES 63

#define MPI_OP_NULL ((MPI_Op)0)
#define MPI_MAX ((MPI_Op)1)
#define MPI_MIN ((MPI_Op)2)
#define MPI_SUM ((MPI_Op)3)
#define MPI_PROD ((MPI_Op)4)
#define MPI_LAND ((MPI_Op)5)
#define MPI_BAND ((MPI_Op)6)
#define MPI_LOR ((MPI_Op)7)
#define MPI_BOR ((MPI_Op)8)
#define MPI_LXOR ((MPI_Op)9)
#define MPI_BXOR ((MPI_Op)10)
#define MPI_MAXLOC ((MPI_Op)11)
#define MPI_MINLOC ((MPI_Op)12)
#define MPI_REPLACE ((MPI_Op)13) /* for one-sided accumulate */
#define MPI_NO_OP ((MPI_Op)14)

#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57

/* ---- issue 9 part B (mpi3): type envelopes, distributed arrays, MPI_BOTTOM ---- */
#define MPI_BOTTOM ((void *)0) /* buffers at absolute addresses (MPI_Get_address) */
#define MPI_COMBINER_NAMED 1
#define MPI_COMBINER_DUP 2
#define MPI_COMBINER_CONTIGUOUS 3
#define MPI_COMBINER_VECTOR 4
#define MPI_COMBINER_HVECTOR_INTEGER 5
#define MPI_COMBINER_HVECTOR 6
#define MPI_COMBINER_INDEXED 7
#define MPI_COMBINER_HINDEXED_INTEGER 8
#define MPI_COMBINER_HINDEXED 9
#define MPI_COMBINER_INDEXED_BLOCK 10
#define MPI_COMBINER_STRUCT_INTEGER 11
#define MPI_COMBINER_STRUCT 12
#define MPI_COMBINER_SUBARRAY 13
#define MPI_COMBINER_DARRAY 14
#define MPI_COMBINER_F90_REAL 15
#define MPI_COMBINER_F90_COMPLEX 16
#define MPI_COMBINER_F90_INTEGER 17
#define MPI_COMBINER_RESIZED 18
#define MPI_COMBINER_HINDEXED_BLOCK 19
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)
#define MPI_TYPECLASS_REAL 1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3
GPUMPI_FN int MPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                                     const int array_of_distribs[], const int array_of_dargs[],
                                     const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                     MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                                    int *num_datatypes, int *combiner);
GPUMPI_FN int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                                    int array_of_integers[], MPI_Aint array_of_addresses[],
                                    MPI_Datatype array_of_datatypes[]);
GPUMPI_FN int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype);
/* The predefined type of a Fortran 90 kind (types_envelope.cu). */
GPUMPI_FN int MPI_Type_create_f90_integer(int r, MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype);
/* ---- end of issue 9 part B block ---- */

#ifndef MPI_MAX_OBJECT_NAME
#define MPI_MAX_OBJECT_NAME 128
#endif

typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);

/* Derived datatypes */
GPUMPI_FN int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                      MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                               MPI_Datatype oldtype, MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_hindexed(int count, const int array_of_blocklengths[],
                                const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                                       const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                       MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                            MPI_Datatype oldtype, MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                             MPI_Datatype oldtype, MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_struct(int count, const int array_of_blocklengths[],
                                     const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                                     MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                              const MPI_Datatype array_of_types[], MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                                       const int array_of_starts[], int order, MPI_Datatype oldtype,
                                       MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_commit(MPI_Datatype *datatype);
GPUMPI_FN int MPI_Type_free(MPI_Datatype *datatype);

/* Queries */
GPUMPI_FN int MPI_Type_size(MPI_Datatype datatype, int *size);
GPUMPI_FN int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size);
GPUMPI_FN int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent);
GPUMPI_FN int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent);
GPUMPI_FN int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent);
GPUMPI_FN int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent);
GPUMPI_FN int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent); /* MPI-1, removed in MPI-3 */
GPUMPI_FN int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement);
GPUMPI_FN int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement);
GPUMPI_FN int MPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen);
GPUMPI_FN int MPI_Type_set_name(MPI_Datatype datatype, const char *type_name);
GPUMPI_FN int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
GPUMPI_FN int MPI_Get_address(const void *location, MPI_Aint *address);
GPUMPI_FN int MPI_Address(const void *location, MPI_Aint *address); /* MPI-1 */
GPUMPI_FN MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp);
GPUMPI_FN MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2);

/* Datatype attributes (types_attr.cu). The callbacks have the
 * communicator ones' shape (MPI_Datatype and MPI_Comm are both int), so
 * MPI_TYPE_DUP_FN is MPI_COMM_DUP_FN's function. */
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval, void *attribute_val,
                                          void *extra_state);
#define MPI_TYPE_NULL_COPY_FN ((MPI_Type_copy_attr_function *)0)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function *)0)
#define MPI_TYPE_DUP_FN ((MPI_Type_copy_attr_function *)gp_comm_dup_fn)
GPUMPI_FN int MPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                                     MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                                     void *extra_state);
GPUMPI_FN int MPI_Type_free_keyval(int *type_keyval);
GPUMPI_FN int MPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val);
GPUMPI_FN int MPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag);
GPUMPI_FN int MPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval);

/* Packing */
GPUMPI_FN int MPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
                       int *position, MPI_Comm comm);
GPUMPI_FN int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                         MPI_Datatype datatype, MPI_Comm comm);
GPUMPI_FN int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size);
/* The portable format, "external32" (types_external32.cu). */
GPUMPI_FN int MPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype,
                                void *outbuf, MPI_Aint outsize, MPI_Aint *position);
GPUMPI_FN int MPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
                                  void *outbuf, int outcount, MPI_Datatype datatype);
GPUMPI_FN int MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size);

/* Reduction operations. Predefined operations also apply, elementwise,
 * to a derived datatype made of one basic type (a contiguous of
 * MPI_DOUBLE, a vector of MPI_DOUBLE_INT). A user function is called with
 * the reduction's datatype handle and data laid out as that datatype
 * describes (unpacked into temporaries when the type is not contiguous);
 * for a non-commutative operation invec holds the lower ranks' part. */
GPUMPI_FN int MPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op);
GPUMPI_FN int MPI_Op_free(MPI_Op *op);
GPUMPI_FN int MPI_Op_commutative(MPI_Op op, int *commute);

#endif
