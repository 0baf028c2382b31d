/* MPI_Error_string and MPI_Error_class. Every error code gpumpi returns is
 * its class, so a code's class is itself; codes the program added
 * (errclass.cu) have the class and text it gave them. */
#include "comm_impl.h"
#include "gpumpi/shim_string.h"

GPUMPI_FN static const char *gp_error_text(int code)
{
    switch (code) {
    case MPI_SUCCESS: return "No MPI error";
    case MPI_ERR_BUFFER: return "Invalid buffer pointer";
    case MPI_ERR_COUNT: return "Invalid count argument";
    case MPI_ERR_TYPE: return "Invalid datatype argument";
    case MPI_ERR_TAG: return "Invalid tag argument";
    case MPI_ERR_COMM: return "Invalid communicator";
    case MPI_ERR_RANK: return "Invalid rank";
    case MPI_ERR_REQUEST: return "Invalid request handle";
    case MPI_ERR_ROOT: return "Invalid root";
    case MPI_ERR_GROUP: return "Invalid group";
    case MPI_ERR_OP: return "Invalid reduction operation";
    case MPI_ERR_TOPOLOGY: return "Invalid topology (the communicator has none, or the wrong kind)";
    case MPI_ERR_DIMS: return "Invalid dimension argument";
    case MPI_ERR_ARG: return "Invalid argument";
    case MPI_ERR_UNKNOWN: return "Unknown error";
    case MPI_ERR_TRUNCATE: return "Message truncated: the receive buffer is too small";
    case MPI_ERR_OTHER: return "Other MPI error";
    case MPI_ERR_INTERN: return "Internal MPI error";
    case MPI_ERR_PENDING: return "Pending request (not failed, not complete)";
    case MPI_ERR_IN_STATUS: return "Error code is in the status";
    case MPI_ERR_NO_MEM: return "Out of memory (raise the device heap with ---gpumpi --heap)";
    case MPI_ERR_KEYVAL: return "Invalid attribute key";
    case MPI_ERR_INFO: return "Invalid info object";
    case MPI_ERR_INFO_KEY: return "Invalid info key (empty, or longer than MPI_MAX_INFO_KEY - 1)";
    case MPI_ERR_INFO_VALUE: return "Invalid info value (longer than MPI_MAX_INFO_VAL - 1)";
    case MPI_ERR_INFO_NOKEY: return "The info has no such key";
    case MPI_ERR_UNSUPPORTED_OPERATION: return "Operation not supported by gpumpi";
    case MPI_ERR_SESSION: return "Invalid session";
    case MPI_ERR_LASTCODE: return "Last error code";
    default: return 0;
    }
}

GPUMPI_FN int MPI_Error_string(int errorcode, char *string, int *resultlen)
{
    const char *text = gp_error_text(errorcode);
    int cls;
    if (!text && !gp_added_error(errorcode, &cls, &text))
        return gp_err(MPI_COMM_WORLD, "MPI_Error_string", MPI_ERR_ARG, "invalid error code %d", errorcode);
    size_t n = gp_strlen(text);
    if (n > MPI_MAX_ERROR_STRING - 1) n = MPI_MAX_ERROR_STRING - 1;
    gp_memcpy(string, text, n);
    string[n] = 0;
    *resultlen = (int)n;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Error_class(int errorcode, int *errorclass)
{
    const char *text;
    int cls = errorcode;
    if (!gp_error_text(errorcode) && !gp_added_error(errorcode, &cls, &text))
        return gp_err(MPI_COMM_WORLD, "MPI_Error_class", MPI_ERR_ARG, "invalid error code %d", errorcode);
    *errorclass = cls;
    return MPI_SUCCESS;
}
