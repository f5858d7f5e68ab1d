#pragma once
// How acmesim writes a JSON document (summary.json, compare.json, plan.json, sweep records, the
// trace statistics): indented by two spaces, ending with a line break. Streamed: a large document
// (a six-month summary.json lists every pretraining job) is never held as one string on top of
// its tree.
#include <nlohmann/json.hpp>

#include <ostream>

namespace acmesim {

// What becomes of a byte that is not UTF-8 (a path or a name in a scenario may hold one).
enum class BadUtf8 {
  Replace, // by U+FFFD: results that people and plots read, rather than failing after the work
  Fail,    // nlohmann's type_error: files read back as input (a sweep point's scenario path and
           // settings), which a replaced byte would change
};

template <typename BasicJson>
void write_json(std::ostream& out, const BasicJson& json, BadUtf8 bad_bytes = BadUtf8::Replace)
{
  // nlohmann's operator<< streams the same way but cannot be told to replace bad bytes.
  nlohmann::detail::serializer<BasicJson> serializer(
      nlohmann::detail::output_adapter<char>(out), ' ',
      bad_bytes == BadUtf8::Replace ? BasicJson::error_handler_t::replace : BasicJson::error_handler_t::strict);
  serializer.dump(json, true, false, 2);
  out << '\n';
}

} // namespace acmesim
