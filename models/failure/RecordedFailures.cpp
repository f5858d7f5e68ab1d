#include "models/failure/RecordedFailures.hpp"

#include "models/common/InputError.hpp"
#include "models/traces/TraceIo.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <istream>
#include <limits>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace acmesim {

namespace {

using trace_io::BadRowLog;
using trace_io::is_blank;
using trace_io::trim;

enum Column : std::size_t { Time, Comp, Target, Category, Repair, Kind, COLUMN_COUNT };
constexpr std::array<std::string_view, COLUMN_COUNT> COLUMN_NAMES{"time_s",   "component", "target",
                                                                  "category", "repair_s",  "repair_kind"};
constexpr std::string_view HEADER = "time_s,component,target,category,repair_s,repair_kind";

std::vector<std::string_view> split(std::string_view line)
{
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    out.push_back(trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
    if (comma == std::string_view::npos)
      return out;
    start = comma + 1;
  }
}

// A number of seconds in [0, MAX_TRACE_SECONDS] (beyond: a typo, as in traces); from_chars refuses "nan" and "inf" only in some spellings,
// so finiteness is checked as well.
std::optional<double> parse_seconds(std::string_view s)
{
  double v = 0;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, v);
  if (s.empty() || ec != std::errc{} || ptr != end || !std::isfinite(v) || v < 0 || v > MAX_TRACE_SECONDS)
    return std::nullopt;
  return v;
}

// Names of the cluster's nodes and leaf switches, for targets.
struct Names {
  std::unordered_map<std::string_view, std::uint32_t> nodes;
  std::unordered_map<std::string_view, std::uint32_t> leaves;
  std::string node_example;
  std::string leaf_example;

  explicit Names(const Topology& t)
  {
    for (NodeId n = 0; n < t.node_count(); ++n)
      nodes.emplace(t.node_name(n), n);
    for (LeafId l = 0; l < t.leaf_count(); ++l)
      leaves.emplace(t.graph()[t.leaf_vertex(l)].name, l);
    node_example = t.node_count() > 0 ? " (e.g. " + t.node_name(0) + ")" : "";
    leaf_example = t.leaf_count() > 0 ? " (e.g. " + t.graph()[t.leaf_vertex(0)].name + ")" : "";
  }
};

// The target of a `component` failure; nullopt after reporting it.
std::optional<std::uint32_t> parse_target(Component component, std::string_view text, const Names& names,
                                          const std::string& where, BadRowLog& problems)
{
  const std::string_view key = COLUMN_NAMES[Target];
  if (component == Component::Storage) {
    if (text == "storage")
      return 0;
    problems.add(where, key, text, "\"storage\" (the target of a storage failure)");
    return std::nullopt;
  }
  const bool wants_leaf = component == Component::LeafSwitch;
  const auto& table = wants_leaf ? names.leaves : names.nodes;
  if (const auto it = table.find(text); it != table.end())
    return it->second;
  std::string message = wants_leaf ? "a leaf switch name of the cluster" + names.leaf_example
                                   : "a node name of the cluster" + names.node_example;
  // Say so when the name is right but of the other kind: the component is the likely typo.
  if (!wants_leaf && names.leaves.count(text))
    message += "; this is a leaf switch, a failure of component leaf_switch";
  else if (wants_leaf && names.nodes.count(text))
    message += "; this is a node, a failure of a node-level component (node, gpu, nvlink, nic)";
  problems.add(where, key, text, message);
  return std::nullopt;
}

std::string format_seconds(double v)
{
  // Shortest text that reads back as the same double.
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc{} ? std::string(buf, end) : std::string("nan");
}

// Where each column is among the fields of a row; repair_kind may be absent.
using ColumnPositions = std::array<std::optional<std::size_t>, COLUMN_COUNT>;

// The columns the header names; InputError for an unknown, repeated or missing one, since rows
// cannot be read without their columns.
ColumnPositions find_columns(const std::vector<std::string_view>& header, const std::string& where,
                             BadRowLog& problems)
{
  ColumnPositions position{};
  for (std::size_t i = 0; i < header.size(); ++i) {
    const auto name = std::find(COLUMN_NAMES.begin(), COLUMN_NAMES.end(), header[i]);
    if (name == COLUMN_NAMES.end()) {
      problems.add(where, header[i], header[i], "unknown column; the columns are " + std::string(HEADER));
      continue;
    }
    auto& slot = position[static_cast<std::size_t>(name - COLUMN_NAMES.begin())];
    if (slot)
      problems.add(where, header[i], header[i], "column given twice");
    slot = i;
  }
  for (std::size_t c = 0; c < COLUMN_COUNT; ++c)
    if (!position[c] && c != Kind)
      problems.add(where, COLUMN_NAMES[c], "", "missing column; the header must name " + std::string(HEADER) +
                                                   " (in any order; repair_kind optional)");
  problems.throw_if_any();
  return position;
}

// The failure of one row, split into as many fields as the header has. Every problem of the row
// is reported; the caller asks the log whether there was one.
FailureEvent read_row(const std::vector<std::string_view>& fields, const ColumnPositions& position,
                      const Names& names, const std::string& where, BadRowLog& problems)
{
  const auto field = [&](Column c) { return fields[*position[c]]; };
  const auto bad = [&](Column c, std::string_view value, const std::string& message) {
    problems.add(where, COLUMN_NAMES[c], value, message);
  };
  const auto seconds = [&](Column c, double& out) {
    if (const auto v = parse_seconds(field(c)))
      out = *v;
    else
      bad(c, field(c), "a number of seconds >= 0 and <= 1e9");
  };
  FailureEvent e;
  seconds(Time, e.time_s);
  seconds(Repair, e.repair_s);
  const auto component = parse_enum<Component>(field(Comp));
  if (!component) {
    bad(Comp, field(Comp), "one of: " + enum_name_list<Component>());
  } else if (const auto target = parse_target(*component, field(Target), names, where, problems)) {
    e.component = *component;
    e.target = *target;
  }
  if (const auto category = parse_enum<FailureCategory>(field(Category)))
    e.category = *category;
  else
    bad(Category, field(Category), "one of: " + enum_name_list<FailureCategory>());
  if (position[Kind]) {
    const std::string_view kind = field(Kind);
    if (kind == "replacement")
      e.replacement = true;
    else if (!kind.empty() && kind != "reboot")
      bad(Kind, kind, "one of: reboot, replacement (empty: reboot)");
  }
  return e;
}

} // namespace

std::vector<FailureEvent> parse_failure_list(std::istream& in, const std::string& source_name,
                                             const Topology& topology)
{
  BadRowLog problems(source_name);
  trace_io::LineReader lines(in);
  std::string_view line;
  std::size_t line_no = 0;
  auto next_line = [&]() { return lines.next(line, line_no); };
  auto where = [&]() { return source_name + ":" + std::to_string(line_no); };

  // Header: the first non-blank line.
  bool have_header = false;
  while (!have_header && next_line())
    have_header = !is_blank(line);
  if (!have_header && !in.eof()) // the read stopped before the end: no line ever ended
    throw InputError(Diagnostic{source_name, "", "",
                                "not a text file (no line ends where its header should), expected the header line " +
                                    std::string(HEADER)});
  if (!have_header)
    throw InputError(Diagnostic{source_name, "", "",
                                "empty file, expected the header line " + std::string(HEADER) +
                                    " (repair_kind optional)"});
  // A UTF-8 byte order mark, as spreadsheet programs write, is not part of the first name.
  if (line.starts_with("\xEF\xBB\xBF"))
    line.remove_prefix(3);
  const std::string header_line(line);
  const std::vector<std::string_view> header = split(header_line);
  const ColumnPositions position = find_columns(header, where(), problems);

  const Names names(topology);
  std::vector<FailureEvent> events;
  while (next_line()) {
    if (is_blank(line))
      continue;
    const std::vector<std::string_view> fields = split(line);
    if (fields.size() != header.size()) {
      problems.add(where(), "", line,
                   "expected " + std::to_string(header.size()) + " comma-separated fields as in the header (" +
                       header_line + "), found " + std::to_string(fields.size()));
      problems.end_row();
      continue;
    }
    const FailureEvent e = read_row(fields, position, names, where(), problems);
    if (problems.end_row())
      events.push_back(e);
  }
  trace_io::throw_if_read_error(in, source_name);
  problems.throw_if_any();
  std::stable_sort(events.begin(), events.end(),
                   [](const FailureEvent& a, const FailureEvent& b) { return a.time_s < b.time_s; });
  return events;
}

std::vector<FailureEvent> read_failure_list(const std::string& path, const Topology& topology)
{
  trace_io::TraceFile file(path);
  return parse_failure_list(file.stream(), path, topology);
}

void write_failure_list(std::ostream& out, const std::vector<FailureEvent>& events, const Topology& topology)
{
  out << HEADER << '\n';
  for (const FailureEvent& e : events) {
    std::string target;
    switch (e.component) {
    case Component::LeafSwitch:
      if (e.target >= topology.leaf_count())
        throw std::out_of_range("write_failure_list: leaf " + std::to_string(e.target) + " out of range");
      target = topology.graph()[topology.leaf_vertex(e.target)].name;
      break;
    case Component::Storage:
      target = "storage";
      break;
    default:
      if (e.target >= topology.node_count())
        throw std::out_of_range("write_failure_list: node " + std::to_string(e.target) + " out of range");
      target = topology.node_name(e.target);
    }
    out << format_seconds(e.time_s) << ',' << to_string(e.component) << ',' << target << ','
        << to_string(e.category) << ',' << format_seconds(e.repair_s) << ','
        << (e.replacement ? "replacement" : "reboot") << '\n';
  }
}

double RecordedFailureSource::next_time() const
{
  return next_ < events_.size() ? events_[next_].time_s : std::numeric_limits<double>::infinity();
}

FailureEvent RecordedFailureSource::pop()
{
  if (next_ >= events_.size())
    throw std::logic_error("RecordedFailureSource::pop: no failure left");
  return events_[next_++];
}

} // namespace acmesim
