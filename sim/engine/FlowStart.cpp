#include "sim/engine/FlowStart.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/kernel/resource/Model.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <stdexcept>

namespace acmesim {

namespace {

simgrid::kernel::resource::Model* network_model()
{
  for (auto* model : simgrid::s4u::Engine::get_instance()->get_all_models())
    if (model->get_name() == "Network_LegrandVelho")
      return model;
  throw std::logic_error("the flows model needs SimGrid's LV08 network model");
}

} // namespace

simgrid::kernel::resource::Action& StartedActions::of(const simgrid::s4u::Comm& comm) const
{
  if (!model_)
    model_ = network_model();
  auto* started = model_->get_started_action_set();
  if (started->empty() || started->back().get_activity() != comm.get_impl())
    throw std::logic_error("a flow's action is not the last one started");
  return started->back();
}

} // namespace acmesim
