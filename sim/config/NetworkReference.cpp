#include "sim/config/NetworkReference.hpp"

#include <algorithm>

namespace acmesim {

namespace {

template <class T> void fill(T& value, T from)
{
  if (value <= 0)
    value = from;
}

} // namespace

void pin_network_reference(NetworkSpec& network, const ClusterSpec& as_run, const ClusterSpec& as_written)
{
  for (const PodSpec& pod : as_run.pods) {
    const auto written = std::find_if(as_written.pods.begin(), as_written.pods.end(),
                                      [&](const PodSpec& p) { return p.name == pod.name; });
    const PodSpec& recorded_on = written == as_written.pods.end() ? pod : *written;
    ReferenceFabric& reference = network.reference[pod.name];
    fill(reference.compute_nics, recorded_on.compute_nics);
    fill(reference.nic_bandwidth_Gbps, recorded_on.nic_bandwidth_Gbps);
    fill(reference.nvlink_bandwidth_GBps, recorded_on.nvlink_bandwidth_GBps);
  }
}

} // namespace acmesim
