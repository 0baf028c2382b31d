#include "shared.h"

double lib_weighted(double x)
{
    calls++;
    return x * weight;
}
