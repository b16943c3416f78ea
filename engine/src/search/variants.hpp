// The search is a template over the ten variants; each file that defines part of it instantiates
// that part for every variant with PAPAN_FOR_EACH_VARIANT(X), which expands X(American) ...
// X(Turkish) (the names of core::VariantId).
#pragma once

#define PAPAN_FOR_EACH_VARIANT(X)                                                                  \
    X(American)                                                                                    \
    X(International)                                                                               \
    X(Brazilian)                                                                                   \
    X(Russian)                                                                                     \
    X(Pool)                                                                                        \
    X(Spanish)                                                                                     \
    X(Italian)                                                                                     \
    X(Czech)                                                                                       \
    X(Thai)                                                                                        \
    X(Turkish)
