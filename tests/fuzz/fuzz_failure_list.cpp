// A recorded failure list, against a small cluster whose node names it may use.
#include "models/cluster/Topology.hpp"
#include "models/failure/RecordedFailures.hpp"
#include "tests/fuzz/FuzzInput.hpp"
#include "tests/support/TinyCluster.hpp"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  static const acmesim::Topology topology(acmesim::testing::tiny_cluster(4, 2));
  return acmesim::fuzz::accept_input_errors([&] {
    std::istringstream in(acmesim::fuzz::text_of(data, size));
    acmesim::parse_failure_list(in, "fuzz.csv", topology);
  });
}
