import { parseAllDocuments } from 'yaml';
import { GRPC_EDGES, GRPC_SERVICES, grpcAddressVariable, type GrpcCaller } from '@stormhook/grpc';
import type { StepResult } from './chart-checks.js';

const COMPONENT = 'app.kubernetes.io/component';
const ADDRESS_VARIABLE = /^[A-Z_]+_GRPC_ADDRESS$/;

interface EnvEntry {
  name?: string;
  value?: string;
}
interface RenderedObject {
  kind?: string;
  metadata?: { name?: string; labels?: Record<string, string> };
  spec?: {
    ports?: Array<{ name?: string; port?: number }>;
    template?: { spec?: { containers?: Array<{ env?: EnvEntry[] }> } };
  };
}

function renderedObjects(renderedYaml: string): RenderedObject[] {
  return parseAllDocuments(renderedYaml)
    .map((doc) => doc.toJS() as RenderedObject | null)
    .filter((o): o is RenderedObject => o !== null);
}

/** The `<NAME>_GRPC_ADDRESS` settings of each rendered Deployment, by component. */
export function renderedGrpcAddresses(renderedYaml: string): Map<string, Map<string, string>> {
  const byComponent = new Map<string, Map<string, string>>();
  for (const object of renderedObjects(renderedYaml)) {
    const component = object.metadata?.labels?.[COMPONENT];
    if (object.kind !== 'Deployment' || !component) continue;
    const addresses = new Map<string, string>();
    for (const container of object.spec?.template?.spec?.containers ?? []) {
      for (const entry of container.env ?? []) {
        if (entry.name && ADDRESS_VARIABLE.test(entry.name)) addresses.set(entry.name, entry.value ?? '');
      }
    }
    byComponent.set(component, addresses);
  }
  return byComponent;
}

/** Where each rendered gRPC Service is reached: `<Service name>:<grpc port>`, by component. */
export function serviceAddresses(renderedYaml: string): Map<string, string> {
  const addresses = new Map<string, string>();
  for (const object of renderedObjects(renderedYaml)) {
    const component = object.metadata?.labels?.[COMPONENT];
    const port = object.spec?.ports?.find((p) => p.name === 'grpc')?.port;
    if (object.kind === 'Service' && component && object.metadata?.name && port !== undefined) addresses.set(component, `${object.metadata.name}:${port}`);
  }
  return addresses;
}

/**
 * Every Deployment is told the address of exactly the services the edge table says it calls, and
 * each address is the callee's rendered Service and gRPC port: an address beyond the table would
 * name a peer the NetworkPolicies block, a missing one a call that cannot be made.
 */
export function checkGrpcAddresses(renderedYaml: string, variant: string): StepResult {
  const rendered = renderedGrpcAddresses(renderedYaml);
  const services = serviceAddresses(renderedYaml);
  const problems: string[] = [];
  let count = 0;
  for (const [caller, callees] of Object.entries(GRPC_EDGES) as Array<[GrpcCaller, readonly (typeof GRPC_SERVICES)[number][]]>) {
    const addresses = rendered.get(caller);
    if (!addresses) {
      problems.push(`no Deployment of ${caller}`);
      continue;
    }
    const expected = new Map(callees.map((callee) => [grpcAddressVariable(callee), callee]));
    for (const [variable, callee] of expected) {
      const value = addresses.get(variable);
      const service = services.get(callee);
      if (value === undefined) problems.push(`${caller} lacks ${variable} (it calls ${callee})`);
      else if (value !== service) problems.push(`${caller}'s ${variable} is "${value}", the ${callee} Service is ${service ?? 'not rendered'}`);
      else count += 1;
    }
    for (const variable of addresses.keys()) {
      if (!expected.has(variable)) problems.push(`${caller} gets ${variable}, but the edge table gives it no such callee`);
    }
  }
  return {
    name: `gRPC addresses (${variant}): each Deployment gets exactly its callees' Service addresses`,
    ok: problems.length === 0,
    detail: problems.length === 0 ? `${count} addresses, one per edge` : problems.join('; '),
  };
}
