/* A user header: left as it is. */
#define LOCAL_OFFSET 10
