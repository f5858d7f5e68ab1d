#include "models/network/CollectiveFit.hpp"

#include "models/common/CsvTable.hpp"
#include "models/common/InputError.hpp"
#include "models/common/Text.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>

namespace acmesim {

namespace {

// An efficiency above 1.2 of nominal (or not above 0) says the row's hardware columns are wrong.
constexpr double MOST_EFFICIENT = 1.2;

bool is_ring(CollectiveOp op)
{
  return op == CollectiveOp::AllReduce || op == CollectiveOp::AllGather || op == CollectiveOp::ReduceScatter;
}

double ring_steps(const MeasuredCollective& m)
{
  const int n = m.on.ranks();
  return m.op == CollectiveOp::AllReduce ? 2.0 * (n - 1) : n - 1.0;
}

// t = a x steps + k x load over the points, weighted by 1 / t^2 (relative error).
struct Sample {
  double steps, load, t;
};

// k with `a` held, by least squares.
double fit_scale(const std::vector<Sample>& samples, double a)
{
  double num = 0, den = 0;
  for (const Sample& s : samples) {
    const double w = 1 / (s.t * s.t);
    num += w * s.load * (s.t - a * s.steps);
    den += w * s.load * s.load;
  }
  return num / den;
}

struct Line {
  double a = 0;
  double k = 0;
};

// (a, k) by least squares; with one point, or loads all proportional to the steps, `a` is held at
// `fixed_a`.
Line fit_line(const std::vector<Sample>& samples, double fixed_a)
{
  double sxx = 0, sxy = 0, syy = 0, sxt = 0, syt = 0;
  for (const Sample& s : samples) {
    const double w = 1 / (s.t * s.t);
    sxx += w * s.steps * s.steps;
    sxy += w * s.steps * s.load;
    syy += w * s.load * s.load;
    sxt += w * s.steps * s.t;
    syt += w * s.load * s.t;
  }
  const double det = sxx * syy - sxy * sxy;
  if (samples.size() >= 2 && det > 1e-9 * sxx * syy)
    return {(sxt * syy - syt * sxy) / det, (sxx * syt - sxy * sxt) / det};
  return {fixed_a, fit_scale(samples, fixed_a)};
}

// The points behind one value, for the error that names them.
std::string where_of(std::span<const MeasuredCollective> points, bool (*selects)(const MeasuredCollective&))
{
  std::vector<std::string> wheres;
  for (const MeasuredCollective& m : points)
    if (m.fit && selects(m))
      wheres.push_back(m.where);
  return join_names(wheres);
}

void check(double value, bool latency, std::span<const MeasuredCollective> points,
           bool (*selects)(const MeasuredCollective&), const char* what)
{
  const bool ok = latency ? value >= 0 : value > 0 && value <= MOST_EFFICIENT;
  if (!ok)
    throw InputError(Diagnostic{where_of(points, selects), "", fmt::format("{:g}", value),
                                fmt::format("fitted to these points, the collective model's {} is {:g}, which no "
                                            "hardware has: check their nodes, NICs and bandwidths",
                                            what, value)});
}

} // namespace

std::vector<MeasuredCollective> read_measured_collectives(const std::string& file, std::string_view text)
{
  DiagnosticList diags;
  std::vector<MeasuredCollective> out;
  for_each_row(file, text, diags,
               {"op", "nodes", "gpus_per_node", "nics", "nic_Gbps", "nvlink_GBps", "bytes", "busbw_GBps", "role",
                "source"},
               [&](CsvTable& t, const CsvTable::Row& row, const auto& c) {
                 MeasuredCollective m;
                 m.where = file + ":" + std::to_string(row.line);
                 const auto op = parse_enum<CollectiveOp>(row.cells[c[0]]);
                 if (!op)
                   t.error(row.line, "op", std::string(row.cells[c[0]]), "expected " + enum_name_list<CollectiveOp>());
                 const auto whole = [&](std::size_t col, double most) -> std::optional<int> {
                   const auto v = t.number(row, col);
                   if (v && (*v < 1 || *v > most || std::floor(*v) != *v)) {
                     t.error(row.line, t.header()[col], std::string(row.cells[col]),
                             fmt::format("expected a whole number from 1 to {:g}", most));
                     return std::nullopt;
                   }
                   return v ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
                 };
                 const auto positive = [&](std::size_t col) -> std::optional<double> {
                   const auto v = t.number(row, col);
                   if (v && !(*v > 0 && std::isfinite(*v))) {
                     t.error(row.line, t.header()[col], std::string(row.cells[col]), "expected a number > 0");
                     return std::nullopt;
                   }
                   return v;
                 };
                 const auto nodes = whole(c[1], 100'000);
                 const auto gpus = whole(c[2], 64);
                 const auto nics = whole(c[3], 64);
                 const auto nic_Gbps = positive(c[4]);
                 const auto nvlink_GBps = positive(c[5]);
                 const auto bytes = positive(c[6]);
                 const auto busbw = positive(c[7]);
                 const auto role = t.one_of(row, c[8], "fit", "judge");
                 if (!op || !nodes || !gpus || !nics || !nic_Gbps || !nvlink_GBps || !bytes || !busbw || !role)
                   return;
                 if (*nodes * *gpus < 2) {
                   t.error(row.line, "gpus_per_node", std::string(row.cells[c[2]]),
                           "a collective needs two GPUs or more: nodes x gpus_per_node is 1");
                   return;
                 }
                 m.op = *op;
                 m.on = CollectiveNodes{*nodes, *gpus, *nvlink_GBps * 1e9, *nics, *nic_Gbps * 1e9 / 8};
                 m.bytes = *bytes;
                 m.busbw_Bps = *busbw * 1e9;
                 m.fit = *role == 0;
                 m.source = row.cells[c[9]];
                 out.push_back(std::move(m));
               });
  if (diags.empty() && out.empty())
    diags.add(file, "", "", "no measurement: expected a row per measured collective after the header");
  diags.throw_if_any();
  return out;
}

FittedCollectives fit_collectives(std::span<const MeasuredCollective> points, const CollectiveCalibration& fallback)
{
  FittedCollectives fitted;
  CollectiveCalibration& c = fitted.calibration;
  c = fallback;
  static constexpr auto nvlink_ring = [](const MeasuredCollective& m) { return is_ring(m.op) && m.on.nodes == 1; };
  static constexpr auto network_ring = [](const MeasuredCollective& m) { return is_ring(m.op) && m.on.nodes > 1; };
  static constexpr auto p2p = [](const MeasuredCollective& m) {
    return m.op == CollectiveOp::SendRecv && m.on.nodes == 1;
  };
  static constexpr auto alltoall = [](const MeasuredCollective& m) {
    return m.op == CollectiveOp::AllToAll && m.on.nodes > 1;
  };
  const auto samples = [&](bool (*selects)(const MeasuredCollective&), auto steps, auto load, int& count) {
    std::vector<Sample> out;
    for (const MeasuredCollective& m : points)
      if (m.fit && selects(m))
        out.push_back({steps(m), load(m), m.time_s()});
    count = static_cast<int>(out.size());
    return out;
  };
  // Rings: t = steps x step + bus bytes / (efficiency x bandwidth), one tier's points at a time.
  const auto fit_tier = [&](bool (*selects)(const MeasuredCollective&), double (*bandwidth)(const MeasuredCollective&),
                            TierCalibration& tier, int& count, const char* name) {
    const auto s = samples(selects, ring_steps, [&](const MeasuredCollective& m) {
      return bus_factor(m.op, m.on.ranks()) * m.bytes / bandwidth(m);
    }, count);
    if (s.empty())
      return;
    const Line line = fit_line(s, tier.step_latency_s);
    tier = {line.a, 1 / line.k};
    check(tier.step_latency_s, true, points, selects, (std::string(name) + " step latency (s)").c_str());
    check(tier.efficiency, false, points, selects, (std::string(name) + " efficiency").c_str());
  };
  fit_tier(nvlink_ring, [](const MeasuredCollective& m) { return m.on.nvlink_Bps; }, c.nvlink, fitted.nvlink_points,
           "NVLink");
  fit_tier(network_ring, [](const MeasuredCollective& m) { return m.on.nics * m.on.nic_Bps; }, c.network,
           fitted.network_points, "network");
  // Send/receive on a node: one NVLink step, then the bytes at the point-to-point efficiency.
  if (auto s = samples(p2p, [](const MeasuredCollective&) { return 1.0; },
                       [](const MeasuredCollective& m) { return m.bytes / m.on.nvlink_Bps; }, fitted.p2p_points);
      !s.empty()) {
    c.nvlink_p2p_efficiency = 1 / fit_scale(s, c.nvlink.step_latency_s);
    check(c.nvlink_p2p_efficiency, false, points, p2p, "NVLink point-to-point efficiency");
  }
  // All-to-all across nodes: n - 1 network steps, then each node's NICs carry its GPUs' bytes
  // bound elsewhere.
  if (auto s = samples(alltoall, [](const MeasuredCollective& m) { return m.on.ranks() - 1.0; },
                       [](const MeasuredCollective& m) {
                         return m.on.gpus_per_node * m.bytes * (m.on.nodes - 1) / m.on.nodes /
                                (m.on.nics * m.on.nic_Bps);
                       },
                       fitted.alltoall_points);
      !s.empty()) {
    // Held at the network's step: one setup rarely spans sizes enough to tell latency apart.
    c.network_alltoall_efficiency = 1 / fit_scale(s, c.network.step_latency_s);
    check(c.network_alltoall_efficiency, false, points, alltoall, "all-to-all NIC efficiency");
  }
  return fitted;
}

} // namespace acmesim
