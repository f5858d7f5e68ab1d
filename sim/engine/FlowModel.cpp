#include "sim/engine/FlowModel.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <string>

namespace acmesim {

void configure_flow_model()
{
  simgrid::s4u::Engine* engine = simgrid::s4u::Engine::get_instance();
  engine->set_config("network/model:LV08");
  engine->set_config("network/bandwidth-factor:" + std::to_string(FLOW_BANDWIDTH_FACTOR));
  engine->set_config("network/latency-factor:0");
  // LV08's weight-S makes a flow's share depend on its route's bandwidths; with the latency factor
  // 0 every flow starts at the same weight and keeps it, except that SimGrid re-weighs the flows of
  // a link whose bandwidth is set. PlatformRings sets it (what rings leave to storage flows), so
  // the term is off: flows share a link evenly, whatever their routes.
  engine->set_config("network/weight-S:0");
}

double lone_flow_share(bool split_duplex)
{
  return FLOW_BANDWIDTH_FACTOR / (split_duplex ? 1 : 1 + CROSS_TRAFFIC_WEIGHT);
}

} // namespace acmesim
