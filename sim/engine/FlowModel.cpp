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
}

double lone_flow_share() { return FLOW_BANDWIDTH_FACTOR / (1 + CROSS_TRAFFIC_WEIGHT); }

} // namespace acmesim
