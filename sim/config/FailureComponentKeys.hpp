#pragma once
// `failures.components.<component>`: whether, how often and how each kind of component fails,
// and how it is repaired (docs/failures.md). A scenario's keys apply over the defaults of
// acme_failure_defaults(), key by key.
#include "models/failure/FailureSpec.hpp"
#include "sim/keys/KeyTable.hpp"

#include <string>
#include <vector>

namespace acmesim {

// `components: {gpu: {...}, ...}`: each named component's spec read over its defaults.
ConfigKey<FailureSpec> components_key();

} // namespace acmesim
