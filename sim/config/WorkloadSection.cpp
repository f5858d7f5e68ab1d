#include "sim/config/WorkloadSection.hpp"

#include "models/traces/TraceFormat.hpp"
#include "sim/config/AcmePresetSection.hpp"
#include "sim/config/SyntheticSection.hpp"

#include <algorithm>
#include <iterator>

namespace acmesim {

namespace {

// The key of a synthetic workload, whose own keys depend on whether it names a preset.
const char* const SYNTHETIC = "synthetic";

const KeyTable<TraceSpec>& trace_keys()
{
  static const KeyTable<TraceSpec> keys({
      path_key("trace", &TraceSpec::as_written, &TraceSpec::path, "trace file", "a job trace (docs/trace-formats.md)")
          .default_is("none: set exactly one of trace and synthetic"),
      value_key("format", &TraceSpec::format, "the trace's format")
          .default_is("told by the file name (.swf, Philly's cluster_job_log, ...)"),
      value_key("on_bad_row", &TraceSpec::on_bad_row,
                "a row that cannot be read: error stops, skip counts it in summary.json"),
      value_key("on_unknown", &TraceSpec::on_unknown,
                "SWF only: a job whose submit time, run time or size is -1 (unknown): error makes it a bad row, "
                "drop leaves it out and counts it in summary.json (jobs.dropped_unknown)"),
  });
  return keys;
}

// Keys of every workload, trace or synthetic.
const KeyTable<WorkloadSpec>& common_keys()
{
  static const KeyTable<WorkloadSpec> keys({
      number_key(LOAD_SCALE, &WorkloadSpec::load_scale, LOAD_SCALE_RANGE, NO_UNIT,
                 "the offered load of every job type times this: generated arrival rates scaled (the Acme "
                 "generator's pretraining campaigns grow in number), a trace's jobs thinned or replicated at "
                 "their own times (docs/scenarios.md#scaling-the-load)"),
      value_key(ESTIMATES, &WorkloadSpec::estimates,
                "the run times schedulers expect before jobs end, for backfilling and every policy's view: actual "
                "(the recorded run time), factor (times workload.estimate_factor) or requested (the time the "
                "user requested, SWF field 9; the run time for a job that records none)")
          .default_is("requested for an SWF log, actual otherwise"),
      number_key(ESTIMATE_FACTOR, &WorkloadSpec::estimate_factor, {1, false, 1e6}, NO_UNIT,
                 "with estimates: factor, estimate = recorded run time x this (> 1 models users' over-estimates)"),
  });
  return keys;
}

TraceSpec read_trace(MapReader& m)
{
  TraceSpec spec;
  const auto& keys = trace_keys().keys();
  keys.front().read(m, spec); // the trace itself
  // Without a format, the file name tells it (.swf, Philly's cluster_job_log, ...).
  if (!m.get("format") && !spec.as_written.empty()) {
    if (const auto inferred = format_from_path(spec.as_written))
      spec.format = *inferred;
    else
      m.checker().error(*m.get("trace"), m.key_of("trace"),
                        "cannot tell the trace format from the file name; set workload.format to one of " +
                            enum_name_list<TraceFormat>());
  }
  std::for_each(std::next(keys.begin()), keys.end(), [&](const auto& key) { key.read(m, spec); });
  if (spec.on_unknown == UnknownPolicy::Drop && !marks_unknown_fields(spec.format))
    m.checker().error(*m.get("on_unknown"), "workload.on_unknown",
                      "only SWF traces mark unknown fields (-1); this trace is " + std::string(to_string(spec.format)));
  return spec;
}

// Reference lines of one form of the synthetic workload, their help saying which form.
void append_form(std::vector<KeyDoc>& docs, std::vector<KeyDoc> form, const std::string& which)
{
  for (auto& doc : form) {
    doc.help = which + ": " + doc.help;
    docs.push_back(std::move(doc));
  }
}

} // namespace

WorkloadSpec read_workload(ConfigChecker& checker, const ConfigNode& node)
{
  std::vector<std::string> valid = trace_keys().names();
  for (const auto& name : common_keys().names())
    valid.push_back(name);
  valid.push_back(SYNTHETIC);
  WorkloadSpec spec;
  MapReader m(checker, &node, "workload", valid);
  if (!m.ok())
    return spec;
  for (const auto& key : common_keys().keys())
    key.read(m, spec);
  // A factor of 1 is the same estimate under either model (the echo writes it under actual).
  if (const ConfigNode* factor = m.get(ESTIMATE_FACTOR);
      factor && spec.estimates != EstimateModel::Factor && spec.estimate_factor != 1)
    checker.error(*factor, m.key_of(ESTIMATE_FACTOR), "applies only with " + ESTIMATES_KEY + ": factor");
  const ConfigNode* trace = m.get("trace");
  const ConfigNode* synthetic = m.get(SYNTHETIC);
  if (trace && synthetic)
    checker.error(node.where, "workload", "", "set exactly one of workload.trace and workload.synthetic, not both");
  if (!trace && !synthetic)
    checker.error(node.where, "workload", "",
                  "expected workload.trace (a job trace file) or workload.synthetic (generator settings)");
  if (trace)
    spec.trace = read_trace(m);
  else if (synthetic) // with neither, the message above says it all
    for (const auto& name : trace_keys().names())
      if (const ConfigNode* n = m.get(name))
        checker.error(*n, m.key_of(name), "applies only to a trace workload (workload.trace)");
  // A log that records what users requested is replayed with the estimates its scheduler had.
  if (spec.trace && !m.get(ESTIMATES) && records_requested_time(spec.trace->format))
    spec.estimates = EstimateModel::Requested;
  if (synthetic && synthetic->is_map() && synthetic->find("preset"))
    spec.acme_preset = read_acme_preset(checker, *synthetic, spec.load_scale);
  else if (synthetic)
    spec.synthetic = read_synthetic(checker, *synthetic, spec.load_scale);
  return spec;
}

template <> Json section_echo(const WorkloadSpec& spec)
{
  Json echo;
  if (spec.trace)
    echo = trace_keys().echo(*spec.trace);
  else if (spec.acme_preset)
    echo = Json{{SYNTHETIC, acme_preset_to_json(*spec.acme_preset)}};
  else if (spec.synthetic)
    echo = Json{{SYNTHETIC, synthetic_to_json(*spec.synthetic)}};
  else
    return Json{{"none", "evaluation campaigns only"}};
  echo.update(common_keys().echo(spec));
  return echo;
}

template <> std::vector<KeyDoc> section_key_docs<WorkloadSpec>(const std::string& path)
{
  std::vector<KeyDoc> docs = trace_keys().docs(path, TraceSpec{});
  for (auto& doc : common_keys().docs(path, WorkloadSpec{}))
    docs.push_back(std::move(doc));
  KeyDoc synthetic = other_doc(join_key(path, SYNTHETIC), "map", MAP_KEYS,
                               "generated jobs: described by hand, or by the generator calibrated to Acme (preset)");
  synthetic.default_value = "none: set exactly one of trace and synthetic";
  docs.push_back(synthetic);
  append_form(docs, synthetic_key_docs(synthetic.path), "by hand");
  append_form(docs, acme_preset_key_docs(synthetic.path), "with preset");
  return docs;
}

} // namespace acmesim
