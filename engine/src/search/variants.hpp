// The search is a template over the variants; each file that defines part of it instantiates
// that part for every variant with PAPAN_FOR_EACH_VARIANT(X) (core/rules/dispatch.hpp, which
// holds the list to the VariantId enum).
#pragma once

#include <papan/core/rules/dispatch.hpp>
