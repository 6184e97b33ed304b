# tensorflow.python.client.device_lib: list_local_devices(), the devices this program runs on (the
# CPU and the GPUs tensorlens uses), as DeviceAttributes records.
import tensorflow as _tf


class DeviceAttributes:
    def __init__(self, name, device_type, memory_limit, incarnation, physical_device_desc):
        self.name = name
        self.device_type = device_type
        self.memory_limit = memory_limit
        self.incarnation = incarnation
        self.physical_device_desc = physical_device_desc
        self.locality = {}

    def __repr__(self):
        return 'name: "%s"\ndevice_type: "%s"\nmemory_limit: %d\nincarnation: %d\nphysical_device_desc: "%s"\n' % (
            self.name, self.device_type, self.memory_limit, self.incarnation, self.physical_device_desc)

    __str__ = __repr__


def list_local_devices(session_config=None):
    out = []
    for i, d in enumerate(_tf.config.list_physical_devices()):
        name = d.name.replace("/physical_device:", "/device:")
        memory = 268435456 if d.device_type == "CPU" else 0
        desc = "" if d.device_type == "CPU" else "device: %s" % name.split(":")[-1]
        out.append(DeviceAttributes(name, d.device_type, memory, i + 1, desc))
    return out
