#pragma once
// The reference of every key a scenario file may set, and of dataset catalogue files: what
// `acmesim list keys` prints and docs/scenario-keys.md holds. It is generated from the key
// declarations and the policy registrations, never written by hand.
#include <string>

namespace acmesim {

// For a terminal: each key with its type, unit, accepted values and default, its help under it.
std::string key_reference_text();
// One Markdown table per section: the text of docs/scenario-keys.md.
std::string key_reference_markdown();

} // namespace acmesim
