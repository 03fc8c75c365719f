/**
 * Stand-ins for the Tilt builtins the Tiltfile may call, with Tilt's own parameter names and
 * defaults (Tilt's api/__init__.py). Prepended to the Tiltfile and run by the plain Starlark
 * interpreter, they make an unknown builtin, a misspelt keyword or a wrong argument count fail as
 * under Tilt; the epilogue then checks what Tilt would only find against a cluster: every
 * resource_deps entry names a resource, every k8s_resource workload is rendered by the chart or
 * deploy/dev, and every image built is used.
 */
export interface TiltContext {
  /** Workload names (Deployment, StatefulSet, Job, ...) the Tiltfile's YAML renders. */
  workloads: readonly string[];
  /** Image references (without tag) the rendered YAML uses. */
  images: readonly string[];
}

export function tiltPrelude(context: TiltContext): string {
  return `
_WORKLOADS = ${JSON.stringify([...context.workloads].sort())}
_IMAGES = ${JSON.stringify([...context.images].sort())}
_resources = []
_deps = []
_built = []
_paths = []

TRIGGER_MODE_AUTO = 'TRIGGER_MODE_AUTO'
TRIGGER_MODE_MANUAL = 'TRIGGER_MODE_MANUAL'

def _blob(what):
    return {'__blob__': what}

def _path_list(value):
    if type(value) == 'string':
        return [value]
    if type(value) == 'list':
        return [v for v in value if type(v) == 'string']
    return []

def _labels(labels):
    for label in _path_list(labels):
        if len(label) == 0 or len(label) > 63:
            fail('label %r must be 1 to 63 characters' % label)

def version_settings(check_updates = True, constraint = ''):
    pass

def watch_settings(ignore):
    pass

def update_settings(max_parallel_updates = 3, k8s_upsert_timeout_secs = 30, suppress_unused_image_warnings = None, k8s_server_side_apply = 'auto'):
    pass

def allow_k8s_contexts(contexts):
    pass

def local(command, quiet = False, command_bat = '', echo_off = False, env = {}, dir = '', stdin = None):
    return _blob(command)

def helm(pathToChartDir, name = '', namespace = '', values = [], set = [], kube_version = '', skip_crds = False):
    _paths.append(pathToChartDir)
    _paths.extend(_path_list(values))
    return _blob('helm ' + pathToChartDir)

def k8s_yaml(yaml, allow_duplicates = False):
    _paths.extend(_path_list(yaml))

def fall_back_on(files):
    _paths.extend(_path_list(files))
    return {'step': 'fall_back_on'}

def sync(local_path, remote_path):
    if not remote_path.startswith('/'):
        fail('sync remote path %r must be absolute' % remote_path)
    return {'step': 'sync'}

def run(cmd, trigger = [], echo_off = False):
    return {'step': 'run'}

def docker_build(ref, context, build_args = {}, dockerfile = 'Dockerfile', dockerfile_contents = '', live_update = [], match_in_env_vars = False, ignore = [], only = [], entrypoint = [], target = '', ssh = '', network = '', secret = '', extra_tag = '', container_args = None, cache_from = [], pull = False, platform = '', extra_hosts = []):
    _paths.append(context)
    _paths.append(dockerfile)
    _built.append(ref)

def port_forward(local_port, container_port = None, name = None, link_path = None, host = None):
    return {'port_forward': local_port}

def link(url, name = None):
    return {'link': url}

def probe(initial_delay_secs = 0, timeout_secs = 1, period_secs = 10, success_threshold = 1, failure_threshold = 3, exec = None, http_get = None, tcp_socket = None):
    return {'probe': True}

def http_get_action(port, host = 'localhost', scheme = 'http', path = ''):
    return {'http_get': port}

def tcp_socket_action(port, host = 'localhost'):
    return {'tcp_socket': port}

def exec_action(command):
    return {'exec': command}

def k8s_resource(workload = '', new_name = '', port_forwards = [], extra_pod_selectors = [], trigger_mode = TRIGGER_MODE_AUTO, resource_deps = [], objects = [], auto_init = True, pod_readiness = '', links = [], labels = [], discovery_strategy = ''):
    if workload and workload not in _WORKLOADS:
        fail('k8s_resource: no workload named %r in the rendered YAML (known: %s)' % (workload, ', '.join(_WORKLOADS)))
    if not workload and not (objects and new_name):
        fail('k8s_resource needs a workload, or objects and new_name')
    _resources.append(new_name or workload)
    _deps.extend(resource_deps)
    _labels(labels)

def local_resource(name, cmd = '', deps = None, trigger_mode = TRIGGER_MODE_AUTO, resource_deps = [], ignore = [], auto_init = True, serve_cmd = '', cmd_bat = '', serve_cmd_bat = '', allow_parallel = False, links = [], labels = [], env = {}, serve_env = {}, readiness_probe = None, dir = '', serve_dir = ''):
    if not cmd and not serve_cmd:
        fail('local_resource %r needs cmd or serve_cmd' % name)
    _resources.append(name)
    _deps.extend(resource_deps)
    _paths.extend(_path_list(deps))
    _labels(labels)
`;
}

/** Runs after the Tiltfile: cross-checks, then the paths it named, for the caller to check on disk. */
export const TILT_EPILOGUE = `
def _epilogue():
    for dep in _deps:
        if dep not in _resources:
            fail('resource_deps names %r, which is no resource (resources: %s)' % (dep, ', '.join(_resources)))
    for ref in _built:
        if ref not in _IMAGES:
            fail('docker_build(%r): no rendered workload uses this image' % ref)
    print('TILT_PATHS ' + json.encode(_paths))
    print('TILT_RESOURCES ' + json.encode(_resources))

_epilogue()
`;
