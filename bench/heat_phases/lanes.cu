/* For heat_phases.sh: how many lanes of the calling rank's warp run
 * together now, called from the converted C of heat. */
__device__ int probe_lanes(void) { return __popc(__activemask()); }
