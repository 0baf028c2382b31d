/* File I/O round trips from every rank: each rank writes its own file in
 * several ways (fprintf, fputs, fputc, fwrite, small and large), seeks,
 * reads it back (fgets, fgetc, ungetc, fread, fscanf) and compares; then all ranks
 * write their own block of one shared file at an offset and read another
 * rank's block back; tmpfile, rename and remove. Plain C and MPI: the same
 * checks pass under MPICH.
 *   file_io DIR   (a directory to write in) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../conformance/mpitest.h"

#define BIG 20000   /* more than one host call's worth (gpumpi buffers ~7 KiB) */
#define BLOCK 1000  /* each rank's block of the shared file */

static char big[BIG], back[BIG];

static void fill(char *p, int n, int seed)
{
    for (int i = 0; i < n; i++) p[i] = (char)((i * 7 + seed * 13) % 251);
}

static void own_file(const char *dir)
{
    char path[512], line[256];
    snprintf(path, sizeof path, "%s/rank%d.txt", dir, rank);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "fopen(%s, w) failed", path);
    if (!f) return;
    for (int i = 0; i < 50; i++) fprintf(f, "rank %d line %d value %.3f\n", rank, i, i * 0.5);
    fputs("last ", f);
    fputc('!', f);
    fputc('\n', f);
    fill(big, BIG, rank);
    CHECK(fwrite(big, 1, BIG, f) == BIG, "fwrite of %d bytes", BIG);
    long end = ftell(f);
    CHECK(fclose(f) == 0, "fclose after writing");

    f = fopen(path, "r");
    CHECK(f != NULL, "fopen(%s, r) failed", path);
    if (!f) return;
    long text = 0;
    for (int i = 0; i < 50; i++) {
        char want[256];
        snprintf(want, sizeof want, "rank %d line %d value %.3f\n", rank, i, i * 0.5);
        CHECK(fgets(line, sizeof line, f) != NULL && strcmp(line, want) == 0, "line %d read back as '%s'", i, line);
        text += (long)strlen(want);
    }
    CHECK(ftell(f) == text, "ftell after the lines: %ld, expected %ld", ftell(f), text);
    int c = fgetc(f);
    CHECK(c == 'l', "fgetc gave %d", c);
    CHECK(ungetc(c, f) == 'l', "ungetc");
    CHECK(fgets(line, sizeof line, f) && strcmp(line, "last !\n") == 0, "after ungetc: '%s'", line);
    size_t got = fread(back, 1, BIG, f);
    CHECK(got == BIG && memcmp(back, big, BIG) == 0, "fread gave %zu bytes (or different ones)", got);
    CHECK(fgetc(f) == EOF && feof(f) && !ferror(f), "end of file not seen");
    CHECK(ftell(f) == end, "ftell at the end: %ld, expected %ld", ftell(f), end);
    /* seek into the middle of the binary part */
    CHECK(fseek(f, text + 7 + 1234, SEEK_SET) == 0, "fseek SEEK_SET");
    CHECK(!feof(f), "fseek clears end of file");
    CHECK(fread(back, 1, 100, f) == 100 && memcmp(back, big + 1234, 100) == 0, "read after fseek");
    CHECK(fseek(f, -50, SEEK_CUR) == 0 && fgetc(f) == (unsigned char)big[1234 + 50], "SEEK_CUR back");
    CHECK(fseek(f, -1, SEEK_END) == 0 && fgetc(f) == (unsigned char)big[BIG - 1], "SEEK_END");
    rewind(f);
    CHECK(fgets(line, sizeof line, f) && strncmp(line, "rank ", 5) == 0, "rewind");
    rewind(f);
    int r1 = -1, l1 = -1, r2 = -1, l2 = -1;
    double v1 = -1, v2 = -1;
    CHECK(fscanf(f, "rank %d line %d value %lf", &r1, &l1, &v1) == 3 && r1 == rank && l1 == 0 && v1 == 0.0,
          "fscanf of the first line: %d %d %g", r1, l1, v1);
    CHECK(fscanf(f, " rank %d line %d value %lf", &r2, &l2, &v2) == 3 && r2 == rank && l2 == 1 && v2 == 0.5,
          "fscanf of the second line: %d %d %g", r2, l2, v2);
    CHECK(fclose(f) == 0, "fclose after reading");

    /* update in place ("r+"), then append ("a") */
    f = fopen(path, "r+");
    CHECK(f != NULL, "fopen r+");
    if (f) {
        CHECK(fseek(f, 5, SEEK_SET) == 0, "fseek in r+");
        fputs("XY", f);
        CHECK(fseek(f, 0, SEEK_SET) == 0, "fseek back in r+");
        CHECK(fgets(line, sizeof line, f) && strncmp(line, "rank XY", 7) == 0, "r+ update read back: '%s'", line);
        fclose(f);
    }
    f = fopen(path, "a");
    CHECK(f != NULL, "fopen a");
    if (f) {
        fprintf(f, "appended by %d\n", rank);
        fclose(f);
    }
    f = fopen(path, "r");
    if (f) {
        CHECK(fseek(f, -(long)strlen("appended by 0\n") - (rank >= 10) - (rank >= 100), SEEK_END) == 0, "seek to the tail");
        CHECK(fgets(line, sizeof line, f) && atoi(line + 12) == rank && strncmp(line, "appended by ", 12) == 0,
              "appended line: '%s'", line);
        fclose(f);
    }
    /* rename, then remove */
    char moved[512];
    snprintf(moved, sizeof moved, "%s/moved%d.txt", dir, rank);
    CHECK(rename(path, moved) == 0, "rename");
    CHECK(fopen(path, "r") == NULL, "the old name still opens");
    CHECK(remove(moved) == 0, "remove");
    CHECK(fopen(moved, "r") == NULL, "a removed file still opens");
    CHECK(fopen("/nonexistent-dir/x", "w") == NULL, "fopen in a missing directory succeeded");
}

static void temp_file(void)
{
    FILE *t = tmpfile();
    CHECK(t != NULL, "tmpfile");
    if (!t) return;
    for (int i = 0; i < 1000; i++) fprintf(t, "%d\n", i * rank);
    rewind(t);
    int ok = 1;
    char line[64];
    for (int i = 0; i < 1000 && ok; i++) ok = fgets(line, sizeof line, t) && atoi(line) == i * rank;
    CHECK(ok, "tmpfile read back");
    fclose(t);
}

static void shared_file(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/shared.dat", dir);
    if (rank == 0) {
        FILE *f = fopen(path, "w");
        CHECK(f != NULL, "creating the shared file");
        if (f) fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    char mine[BLOCK];
    fill(mine, BLOCK, rank + 1000);
    FILE *f = fopen(path, "r+");
    CHECK(f != NULL, "opening the shared file");
    if (!f) return;
    CHECK(fseek(f, (long)rank * BLOCK, SEEK_SET) == 0, "seek to my block");
    CHECK(fwrite(mine, 1, BLOCK, f) == BLOCK, "writing my block");
    CHECK(fclose(f) == 0, "closing the shared file");
    MPI_Barrier(MPI_COMM_WORLD);
    int other = (rank + 1) % size;
    char want[BLOCK], got[BLOCK];
    fill(want, BLOCK, other + 1000);
    f = fopen(path, "rb");
    CHECK(f != NULL, "reopening the shared file");
    if (!f) return;
    CHECK(fseek(f, 0, SEEK_END) == 0 && ftell(f) == (long)size * BLOCK, "shared file size %ld", ftell(f));
    CHECK(fseek(f, (long)other * BLOCK, SEEK_SET) == 0, "seek to rank %d's block", other);
    CHECK(fread(got, 1, BLOCK, f) == BLOCK && memcmp(got, want, BLOCK) == 0, "rank %d's block differs", other);
    fclose(f);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) CHECK(remove(path) == 0, "removing the shared file");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const char *dir = argc > 1 ? argv[1] : ".";
    own_file(dir);
    temp_file();
    shared_file(dir);
    return mt_finish();
}
