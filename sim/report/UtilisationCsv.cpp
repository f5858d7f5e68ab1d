// utilisation.csv: the ledger's series, one row per bin of output.utilisation_bin_s, each state
// as the mean number of GPUs in it over the bin, then, on a GPU cluster, the bin's mean IT power
// (docs/outputs.md).
#include "sim/report/EnergySummary.hpp"
#include "sim/report/Reports.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace acmesim {

void write_utilisation_csv(std::ostream& out, const Ledger& ledger, bool network_on, const PowerSpec* power,
                           const Servers& servers)
{
  out << "start_s,end_s";
  for (GpuState s : enum_values<GpuState>())
    if (state_reported(s, network_on))
      out << ',' << to_string(s);
  out << (power ? ",it_power_kw\n" : "\n");
  const auto& series = ledger.series();
  fmt::memory_buffer row;
  for (std::size_t k = 0; k < series.size(); ++k) {
    // The bounds the ledger uses; the last bin ends at the makespan.
    const double start = ledger.start() + static_cast<double>(k) * ledger.bin_width();
    const double end = std::min(ledger.start() + static_cast<double>(k + 1) * ledger.bin_width(), ledger.now());
    if (!(end > start))
      continue;
    row.clear();
    fmt::format_to(std::back_inserter(row), "{:.3f},{:.3f}", start, end);
    for (GpuState s : enum_values<GpuState>())
      if (state_reported(s, network_on))
        fmt::format_to(std::back_inserter(row), ",{:.6f}", series[k][static_cast<std::size_t>(s)] / (end - start));
    if (power)
      fmt::format_to(std::back_inserter(row), ",{:.3f}",
                     it_power_w(drawn_seconds(series[k]), end - start, *power, servers) / 1000);
    row.push_back('\n');
    out.write(row.data(), static_cast<std::streamsize>(row.size()));
  }
}

} // namespace acmesim
