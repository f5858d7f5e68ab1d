#pragma once
// Timestamps as job traces write them (the Acme release, Helios, Philly).
#include <optional>
#include <string_view>

namespace acmesim {

// Parses "2023-03-01 00:18:22+08:00" (also with 'T', a 'Z', '+0800' or '+08' offset, fractional
// seconds, or no offset, which means UTC) into seconds since the Unix epoch. std::nullopt if the
// text is not such a timestamp: impossible dates (Feb 30), leap seconds and offsets beyond
// ±14:00 are rejected rather than normalised, since in a trace they mean corrupt data.
std::optional<double> parse_timestamp(std::string_view text);

} // namespace acmesim
