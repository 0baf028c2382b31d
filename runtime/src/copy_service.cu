/* The copy service: one thread copies at about 1 GB/s, a warp at 10-25 and
 * a block at 40+, but every rank is a single thread. So large copies (a
 * rendezvous message landing in the receiver's buffer) are posted as jobs
 * and carried out by service warps the launcher starts beside the ranks
 * (extra blocks, up to 32 warps, co-resident with them), each warp taking
 * GP_COPY_CHUNK at a time.
 * The rank that posted waits for its chunks; without a service (threads
 * backend, or no room for the extra block) it copies by itself. */
#include "runtime.h"
#include "gpumpi/shim_string.h"

#define GP_COPY_SERVICE_MIN (32u << 10) /* below this a rank copies faster itself */
#define GP_WORK_BITS 20
#define GP_WORK_MASK ((1ull << GP_WORK_BITS) - 1)

/* Only memory every thread can reach may go to the service. */
GPUMPI_FN static int gp_copy_shareable(const void *dst, const void *src, size_t n)
{
    /* from another GPU a thread pulls at 0.06 GB/s (each load a trip over
     * NVLink), a warp's eight-wide lanes some 40 times that */
    size_t least = gp_on_other_gpu(src) ? GP_EAGER_BYTES : GP_COPY_SERVICE_MIN;
    return n >= least && (n + GP_COPY_CHUNK - 1) / GP_COPY_CHUNK <= GP_WORK_MASK &&
           gp_w()->copy_jobs && gp_is_shared_memory(dst) && gp_is_shared_memory(src);
}

GPUMPI_FN void gp_copy_general(void *dst, const void *src, size_t n)
{
    if (!gp_copy_shareable(dst, src, n)) {
        gp_memcpy(dst, src, n);
        return;
    }
    gp_copy_job *jobs = gp_w()->copy_jobs, *job = 0;
    for (int i = 0; i < GP_COPY_JOBS && !job; i++) {
        gp_copy_job *j = &jobs[(gp_thread_rank() + i) % GP_COPY_JOBS];
        if (gp_cas(&j->busy, 0, 1)) job = j;
    }
    if (!job) { /* every job slot in use: copy by ourselves rather than wait */
        gp_memcpy(dst, src, n);
        return;
    }
    uint64_t chunks = (n + GP_COPY_CHUNK - 1) / GP_COPY_CHUNK;
    job->src = (const char *)src;
    job->dst = (char *)dst;
    job->bytes = n;
    job->chunks_done = 0;
    uint64_t gen = (job->work >> (2 * GP_WORK_BITS)) + 1;
    /* publishing the work word hands the job to the service */
    gp_exchange64(&job->work, (gen << (2 * GP_WORK_BITS)) | (chunks << GP_WORK_BITS));
    unsigned spins = 0;
    while (gp_load_acquire(&job->chunks_done) < chunks) gp_pause_upto(&spins, 256);
    gp_store_release(&job->busy, 0);
}

/* Takes the next chunk of job j for this warp: its index, or -1. */
GPUMPI_FN static int64_t gp_take_chunk(gp_copy_job *j)
{
    int64_t got = -1;
    if (gp_lane_id() == 0) {
        for (;;) {
            uint64_t w = gp_load_relaxed64(&j->work);
            uint64_t next = w & GP_WORK_MASK, chunks = (w >> GP_WORK_BITS) & GP_WORK_MASK;
            if (next >= chunks) break;
            if (gp_cas64(&j->work, w, w + 1)) {
                got = (int64_t)next;
                break;
            }
        }
    }
    return (int64_t)gp_warp_bcast64((uint64_t)got);
}

/* A job with chunks left, or -1: the lanes look at the jobs together (one
 * round of loads, not one after another), starting at a place that
 * differs from warp to warp. */
GPUMPI_FN static int gp_find_job(gp_world *w, int warp)
{
    int lane = gp_lane_id(), width = gp_warp_width();
    for (int base = 0; base < GP_COPY_JOBS; base += width) {
        int i = (warp + base + lane) % GP_COPY_JOBS, open = 0;
        if (base + lane < GP_COPY_JOBS) {
            uint64_t wd = gp_load_relaxed64(&w->copy_jobs[i].work);
            open = (wd & GP_WORK_MASK) < ((wd >> GP_WORK_BITS) & GP_WORK_MASK);
        }
        unsigned found = gp_warp_ballot(open);
        if (found) return (warp + base + gp_lowest_bit(found)) % GP_COPY_JOBS;
    }
    return -1;
}

/* What the service warps run until every rank has returned. */
extern "C" GPUMPI_FN void gp_copy_service(int warp, int ranks)
{
    gp_world *w = gp_w();
    unsigned spins = 0;
    for (;;) {
        int worked = 0, i = gp_find_job(w, warp);
        if (i >= 0) {
            gp_copy_job *j = &w->copy_jobs[i];
            int64_t c;
            while ((c = gp_take_chunk(j)) >= 0) {
                /* the job cannot be reposted before this chunk is counted */
                size_t off = (size_t)c * GP_COPY_CHUNK, len = j->bytes - off;
                if (len > GP_COPY_CHUNK) len = GP_COPY_CHUNK;
                gp_copy_lanes(j->dst + off, j->src + off, len, gp_lane_id(), gp_warp_width());
                gp_fence(); /* every lane's stores, before lane 0 counts the chunk */
                gp_warp_sync();
                if (gp_lane_id() == 0) gp_fetch_add(&j->chunks_done, 1);
                worked = 1;
            }
        }
        if (worked) {
            spins = 0;
        } else {
            if (gp_load_relaxed(&w->ranks_done) >= (uint32_t)ranks) return;
            gp_pause_upto(&spins, 512);
        }
    }
}
