#pragma once
// How acmesim writes a JSON document (summary.json, compare.json, plan.json, sweep records, the
// trace statistics): indented by two spaces, ending with a line break, and with any byte that is
// not UTF-8 (a path or a name in a scenario may hold one) replaced by U+FFFD instead of failing
// after the work is done. Streamed: a large document (a six-month summary.json lists every
// pretraining job) is never held as one string on top of its tree.
#include <nlohmann/json.hpp>

#include <ostream>

namespace acmesim {

template <typename BasicJson>
void write_json(std::ostream& out, const BasicJson& json)
{
  // nlohmann's operator<< streams the same way but cannot be told to replace bad bytes.
  nlohmann::detail::serializer<BasicJson> serializer(nlohmann::detail::output_adapter<char>(out), ' ',
                                                     BasicJson::error_handler_t::replace);
  serializer.dump(json, true, false, 2);
  out << '\n';
}

} // namespace acmesim
