/* MPI-1's bound markers MPI_LB and MPI_UB in MPI_Type_struct and
 * MPI_Type_create_struct: an explicit bound wins over the data's own, a
 * marker inside the data included; the bounds carry into types built on
 * top; a type of markers of one kind only has 0 for the other bound; a
 * resized type's bounds are no markers; the
 * markers' names and sizes; packing a type whose UB pads it. Self-checking:
 * rank 0 prints " No Errors". Any number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

static void check_bounds(const char *what, MPI_Datatype t, int size, MPI_Aint lb, MPI_Aint extent, MPI_Aint true_lb,
                         MPI_Aint true_extent)
{
    int s;
    MPI_Aint l, e, tl, te;
    MPI_Type_size(t, &s);
    MPI_Type_get_extent(t, &l, &e);
    MPI_Type_get_true_extent(t, &tl, &te);
    CHECK(s == size && l == lb && e == extent && tl == true_lb && te == true_extent,
          "%s: size %d lb %ld extent %ld true lb %ld true extent %ld (expected %d %ld %ld %ld %ld)", what, s, (long)l,
          (long)e, (long)tl, (long)te, size, (long)lb, (long)extent, (long)true_lb, (long)true_extent);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);

    /* markers around the data */
    int bl[3] = {1, 4, 1};
    MPI_Aint disp[3] = {-3, 0, 6};
    MPI_Datatype types[3] = {MPI_LB, MPI_BYTE, MPI_UB}, around, inside, two, lbonly;
    MPI_Type_struct(3, bl, disp, types, &around);
    check_bounds("{(LB,-3), 4 bytes at 0, (UB,6)}", around, 4, -3, 9, 0, 4);
    MPI_Type_contiguous(2, around, &two);
    check_bounds("2 of them", two, 8, -3, 18, 0, 13);
    MPI_Type_free(&two);

    /* a UB inside the data: the marker wins */
    int ibl[2] = {4, 1};
    MPI_Aint idisp[2] = {0, 8};
    MPI_Datatype itypes[2] = {MPI_INT, MPI_UB};
    MPI_Type_create_struct(2, ibl, idisp, itypes, &inside);
    check_bounds("{4 ints at 0, (UB,8)}", inside, 16, 0, 8, 0, 16);

    /* markers of one kind only */
    int one = 1;
    MPI_Aint ten = 10;
    MPI_Datatype lb_type = MPI_LB;
    MPI_Type_create_struct(1, &one, &ten, &lb_type, &lbonly);
    check_bounds("{(LB,10)}", lbonly, 0, 10, -10, 0, 0);
    MPI_Type_free(&lbonly);

    /* a resized type's bounds are not markers: in a struct they combine
     * with the others' (lb 10 from the int, not 11 from the resized byte) */
    MPI_Datatype rbyte, mixed;
    MPI_Type_create_resized(MPI_BYTE, 1, 1, &rbyte);
    int rbl[2] = {1, 1};
    MPI_Aint rdisp[2] = {10, 10};
    MPI_Datatype rtypes[2] = {rbyte, MPI_INT};
    MPI_Type_create_struct(2, rbl, rdisp, rtypes, &mixed);
    check_bounds("{resized byte (lb 1, extent 1) at 10, int at 10}", mixed, 5, 10, 4, 10, 4);
    MPI_Type_free(&mixed);
    MPI_Type_free(&rbyte);

    char name[MPI_MAX_OBJECT_NAME];
    int len, s;
    MPI_Type_get_name(MPI_LB, name, &len);
    CHECK(!strcmp(name, "MPI_LB"), "name of MPI_LB: '%s'", name);
    MPI_Type_get_name(MPI_UB, name, &len);
    CHECK(!strcmp(name, "MPI_UB"), "name of MPI_UB: '%s'", name);
    MPI_Type_size(MPI_UB, &s);
    CHECK(s == 0, "size of MPI_UB: %d", s);

    /* a UB padding a type: elements 8 bytes apart, packed without the gaps */
    int pbl[2] = {1, 1};
    MPI_Aint pdisp[2] = {0, 8};
    MPI_Datatype ptypes[2] = {MPI_INT, MPI_UB}, padded;
    MPI_Type_struct(2, pbl, pdisp, ptypes, &padded);
    MPI_Type_commit(&padded);
    int data[6] = {1, -1, 2, -1, 3, -1}, back[6] = {0, 7, 0, 7, 0, 7}, packed[3], pos = 0;
    MPI_Pack(data, 3, padded, packed, (int)sizeof packed, &pos, MPI_COMM_WORLD);
    CHECK(pos == 12 && packed[0] == 1 && packed[1] == 2 && packed[2] == 3, "packing 3 padded ints: %d bytes", pos);
    pos = 0;
    MPI_Unpack(packed, (int)sizeof packed, &pos, back, 3, padded, MPI_COMM_WORLD);
    CHECK(back[0] == 1 && back[1] == 7 && back[2] == 2 && back[4] == 3 && back[5] == 7, "unpacking 3 padded ints");
    MPI_Type_free(&padded);
    MPI_Type_free(&around);
    MPI_Type_free(&inside);
    return mt_finish();
}
