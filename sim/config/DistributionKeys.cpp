#include "sim/config/DistributionKeys.hpp"
#include "sim/config/PhysicalRanges.hpp"

namespace acmesim {

namespace {

using Dist = DurationDistribution;

constexpr double HOUR = 3600;

// The key naming the kind, which decides the other keys.
const char* const DIST = "dist";

NumberRange hours(bool strictly_positive)
{
  NumberRange r = physical::HOURS;
  if (!strictly_positive)
    r.min = 0;
  return r;
}

struct Parameter {
  Dist::Kind kind;
  ConfigKey<Dist> key;
};

// Every kind's parameters.
std::vector<Parameter> parameters(bool time_between_failures)
{
  return {
      {Dist::Kind::Exponential,
       scaled_key("mean_h", &Dist::mean_s, HOUR, hours(true), "h", "the mean").required()},
      // Below 0.1 the mean (scale x Gamma(1 + 1/k)) exceeds 10^150 scales: not a failure process.
      {Dist::Kind::Weibull, number_key("shape", &Dist::shape, number_between(0.1, 100), NO_UNIT,
                                       "the shape k (< 1: early failures, > 1: wear-out)")
                                .required()},
      {Dist::Kind::Weibull, scaled_key("scale_h", &Dist::scale_s, HOUR, hours(true), "h", "the scale").required()},
      {Dist::Kind::LogNormal,
       scaled_key("median_h", &Dist::median_s, HOUR, hours(true), "h", "the median").required()},
      // sigma 5 already puts the mean at 270,000 medians.
      {Dist::Kind::LogNormal,
       number_key("sigma", &Dist::sigma, number_between(0, 5), NO_UNIT, "the standard deviation of the log")
           .required()},
      {Dist::Kind::Fixed,
       scaled_key("value_h", &Dist::value_s, HOUR, hours(time_between_failures), "h", "the value").required()},
  };
}

ConfigKey<Dist> kind_key()
{
  return value_key(DIST, &Dist::kind, "the kind of distribution, which decides its parameters").required();
}

KeyTable<Dist> keys_of_kind(Dist::Kind kind, bool time_between_failures)
{
  std::vector<ConfigKey<Dist>> keys{kind_key()};
  for (auto& parameter : parameters(time_between_failures))
    if (parameter.kind == kind)
      keys.push_back(std::move(parameter.key));
  return KeyTable<Dist>(std::move(keys));
}

// The keys of a distribution of `kind`: `dist`, then the kind's parameters.
const KeyTable<Dist>& distribution_keys(Dist::Kind kind, bool time_between_failures)
{
  constexpr std::size_t kinds = enum_values<Dist::Kind>().size();
  static const std::vector<KeyTable<Dist>> tables = [] {
    std::vector<KeyTable<Dist>> all;
    for (const bool tbf : {false, true})
      for (const Dist::Kind k : enum_values<Dist::Kind>())
        all.push_back(keys_of_kind(k, tbf));
    return all;
  }();
  return tables[(time_between_failures ? kinds : 0) + static_cast<std::size_t>(kind)];
}

} // namespace

std::optional<Dist> read_distribution(ConfigChecker& checker, const ConfigNode& node, const std::string& key,
                                      bool time_between_failures)
{
  MapReader m(checker, &node, key); // the valid keys depend on the kind
  if (!m.ok())
    return std::nullopt;
  Dist d;
  if (!m.require(DIST) || !m.read(DIST, d.kind))
    return std::nullopt;
  const KeyTable<Dist>& keys = distribution_keys(d.kind, time_between_failures);
  bool ok = true;
  for (const auto& entry : node.entries)
    if (!keys.has(entry.key)) {
      checker.error(entry.key_where, m.key_of(entry.key), entry.key,
                    "unknown key for dist " + std::string(to_string(d.kind)) +
                        "; valid keys: " + join_names(keys.names()));
      ok = false;
    }
  for (const auto& name : keys.names())
    ok = m.require(name) && ok;
  if (!ok)
    return std::nullopt;
  return keys.read(m, d) ? std::optional<Dist>(d) : std::nullopt;
}

Json distribution_to_json(const Dist& distribution)
{
  return distribution_keys(distribution.kind, true).echo(distribution);
}

std::vector<KeyDoc> distribution_key_docs(const std::string& path, bool time_between_failures)
{
  std::vector<KeyDoc> docs = kind_key().docs(path, Dist{});
  for (const auto& parameter : parameters(time_between_failures))
    for (KeyDoc doc : parameter.key.docs(path, Dist{})) {
      doc.help = "with dist " + std::string(to_string(parameter.kind)) + ": " + doc.help;
      docs.push_back(std::move(doc));
    }
  return docs;
}

} // namespace acmesim
