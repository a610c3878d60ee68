// A table of per-device implementations keyed by a function, in the shape
// of a detection library's device registry: DISPATCH_DEVICE_IMPL(key, ...)
// in key's body calls what REGISTER_DEVICE_IMPL(key, CUDA, fn) registered
// for the device type of the first tensor argument. Nothing here makes that
// tensor's device current.
#pragma once
#include <torch/extension.h>
#include <type_traits>
#include <utility>

template <typename F, F f> class OpTable;

template <typename R, typename... A, R (*f)(A...)>
class OpTable<R (*)(A...), f> {
public:
  using Fn = R (*)(A...);
  static OpTable &get() {
    static OpTable table;
    return table;
  }
  void Register(at::DeviceType device, Fn fn) { slots_[int(device)] = fn; }
  Fn Find(at::DeviceType device) const { return slots_[int(device)]; }

private:
  Fn slots_[64] = {};
};

inline at::Device firstDevice() { return at::Device(at::kCPU); }

template <typename T, typename... Rest>
at::Device firstDevice(T &&first, Rest &&...rest) {
  if constexpr (std::is_same_v<std::decay_t<T>, at::Tensor>)
    return first.device();
  else
    return firstDevice(std::forward<Rest>(rest)...);
}

template <typename Table, typename... Args>
auto callRegistered(const Table &table, const char *name, Args &&...args) {
  auto fn = table.Find(firstDevice(args...).type());
  TORCH_CHECK(fn != nullptr, name, ": no implementation for this device");
  return fn(std::forward<Args>(args)...);
}

#define OP_TABLE(key) OpTable<decltype(&(key)), key>::get()

#define REGISTER_DEVICE_IMPL(key, device, value)                               \
  struct key##_##device##_adder {                                              \
    key##_##device##_adder() {                                                 \
      OP_TABLE(key).Register(at::k##device, value);                            \
    }                                                                          \
  };                                                                           \
  static key##_##device##_adder key##_##device##_added;

#define DISPATCH_DEVICE_IMPL(key, ...)                                         \
  callRegistered(OP_TABLE(key), #key, __VA_ARGS__)
