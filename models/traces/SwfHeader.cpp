#include "models/traces/SwfHeader.hpp"

#include "models/common/InputError.hpp"
#include "models/traces/TraceIo.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace acmesim {

namespace {

bool same_key(std::string_view a, std::string_view b)
{
  return std::ranges::equal(a, b, [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  });
}

// The first word of `value` as a positive count; headers may follow it with a remark.
SwfHeaderCount count_of(std::string_view key, std::string_view value, const std::string& source, std::size_t line)
{
  const std::string_view word = value.substr(0, value.find_first_of(" \t"));
  long long n = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), n);
  if (ec != std::errc{} || end != word.data() + word.size() || n <= 0)
    throw InputError(Diagnostic{source + ":" + std::to_string(line), std::string(key), std::string(value),
                                "expected a positive whole number in the SWF header"});
  return {n, line};
}

} // namespace

SwfMachine read_swf_machine(std::istream& in, const std::string& source)
{
  SwfMachine machine;
  trace_io::LineReader lines(in);
  std::string_view text;
  std::size_t line_no = 0;
  while (lines.next(text, line_no)) {
    const std::string_view line = trace_io::trim(text);
    if (line.empty())
      continue;
    if (line.front() != ';')
      break; // the first job line ends the header
    const std::string_view field = line.substr(1);
    const std::size_t colon = field.find(':');
    if (colon == std::string_view::npos)
      continue;
    const std::string_view key = trace_io::trim(field.substr(0, colon));
    const std::string_view value = trace_io::trim(field.substr(colon + 1));
    if (same_key(key, "Computer"))
      machine.computer = value;
    else if (same_key(key, "MaxNodes"))
      machine.max_nodes = count_of(key, value, source, line_no);
    else if (same_key(key, "MaxProcs"))
      machine.max_procs = count_of(key, value, source, line_no);
  }
  trace_io::throw_if_read_error(in, source);
  return machine;
}

SwfMachine read_swf_machine_file(const std::string& path)
{
  trace_io::TraceFile file(path);
  return read_swf_machine(file.stream(), path);
}

} // namespace acmesim
