#include "shared.h"

int calls;
double weight = 1.0;
