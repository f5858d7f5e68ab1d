#pragma once
// The names of an enum's values, declared once, next to the enum: what scenario files, CSV
// files, reports and messages call each value. Everything else derives from that declaration:
// to_string, parsing, the list of valid names in error messages and docs, and iteration over
// every value in a fixed order.
//
//   enum class Mode : std::uint8_t { Sync, Async };
//   constexpr auto enum_names(Mode) { return names_in_order<Mode>("sync", "async"); }
//
// Names are given in the order of the enum's values, which must be 0, 1, 2, ... (the default).
// The declaring function is found by argument-dependent lookup, so it lives in the enum's
// namespace.
#include "models/common/Text.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace acmesim {

template <typename E, std::size_t N>
struct EnumNames {
  std::array<std::pair<E, std::string_view>, N> entries;
};

// The table of an enum whose values are 0, 1, ..., N - 1, named in that order.
template <typename E, typename... Names>
constexpr EnumNames<E, sizeof...(Names)> names_in_order(Names... names)
{
  EnumNames<E, sizeof...(Names)> table{};
  std::size_t i = 0;
  ((table.entries[i] = {static_cast<E>(i), std::string_view(names)}, ++i), ...);
  return table;
}

template <typename E>
concept NamedEnum = std::is_enum_v<E> && requires(E e) { enum_names(e).entries; };

template <NamedEnum E>
constexpr std::string_view to_string(E value)
{
  constexpr auto entries = enum_names(E{}).entries;
  const auto i = static_cast<std::size_t>(value);
  return i < entries.size() ? entries[i].second : std::string_view("?");
}

template <NamedEnum E>
constexpr std::optional<E> parse_enum(std::string_view name)
{
  for (const auto& [v, n] : enum_names(E{}).entries)
    if (n == name)
      return v;
  return std::nullopt;
}

// Every value, in declaration order.
template <NamedEnum E>
constexpr auto enum_values()
{
  constexpr auto entries = enum_names(E{}).entries;
  std::array<E, entries.size()> values{};
  for (std::size_t i = 0; i < entries.size(); ++i)
    values[i] = entries[i].first;
  return values;
}

template <NamedEnum E>
std::vector<std::string> enum_name_vector()
{
  std::vector<std::string> names;
  for (const auto& entry : enum_names(E{}).entries)
    names.emplace_back(entry.second);
  return names;
}

// "a, b, c", for messages.
template <NamedEnum E>
std::string enum_name_list()
{
  return join_names(enum_name_vector<E>());
}

} // namespace acmesim
