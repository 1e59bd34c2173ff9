/**
 * Private addresses kept out of reach (issue 25 §10): a public site must not make sitemapkit, run
 * on a server, request the addresses of that server's own network (a redirect to
 * http://169.254.169.254/, a sitemap index listing http://10.0.0.5/). The first host a client
 * requests is its start; when the start is public, any other host must resolve to public addresses
 * only. A start that is itself private or loopback (an intranet, the tests' 127.0.0.1) lets its
 * client go anywhere, and `allowPrivateAddresses` lifts the guard.
 *
 * The check resolves the name as the connection will (the system resolver) just before the
 * request; every hop of a redirect chain goes through it. A name may answer a public address to
 * that check and a private one a moment later, when the connection resolves it again (DNS
 * rebinding): so the connection's own lookup (`AddressGuard.lookup`, given to the agent) holds
 * the addresses it connects to to the same policy.
 */
import { lookup as systemLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { HttpError, PRIVATE_ADDRESS_CODE } from './errors.js';
import type { Layer } from './types.js';

export interface AddressGuardOptions {
  /** Allow any address (`--allow-private-addresses`). */
  allowPrivateAddresses: boolean;
  /** Resolves a name to its addresses (the system resolver by default; replaceable in tests). */
  resolve?: ((host: string) => Promise<string[]>) | undefined;
  /** How connections resolve names (dns.lookup by default; replaceable in tests). */
  connectLookup?: LookupFunction | undefined;
}

/** The guard: a layer that checks each request's host, and the lookup its connections must use. */
export interface AddressGuard {
  layer: Layer;
  /** For the agent's `connect.lookup`: resolves as the system does, refusing what the layer would. */
  lookup: LookupFunction;
}

/** The guard's layer alone (requests through a transport whose connections it does not see). */
export function guardAddresses(options: AddressGuardOptions): Layer {
  return createAddressGuard(options).layer;
}

export function createAddressGuard({
  allowPrivateAddresses,
  resolve = resolveAll,
  connectLookup = systemLookup,
}: AddressGuardOptions): AddressGuard {
  if (allowPrivateAddresses) return { layer: (next) => next, lookup: connectLookup };
  /** The start host, and once known whether it is public: only then are other hosts held to it. */
  let start: StartHost | undefined;
  const addressesOf = (host: string): Promise<string[]> => (isIP(host) !== 0 ? Promise.resolve([host]) : resolve(host));
  /** Each host's verdict for a while: a sitemap index of 50,000 children on one CDN is one lookup, not 50,000. */
  const verdicts = new Map<string, { at: number; internal: Promise<string | undefined> }>();
  const privateAddressOf = (host: string): Promise<string | undefined> => {
    const now = Date.now();
    const known = verdicts.get(host);
    if (known !== undefined && now - known.at < VERDICT_TTL_MS) return known.internal;
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    // A name that does not resolve is the transport's to report, as it would be without the guard.
    const internal = addressesOf(host).then(
      (addresses) => addresses.find((address) => !isPublicAddress(address)),
      () => undefined,
    );
    verdicts.set(host, { at: now, internal });
    return internal;
  };
  const layer: Layer = (next) => async (request) => {
    const host = hostOf(request.url);
    if (host === undefined) return next(request);
    if (!start) {
      const first: StartHost = (start = { host, isPublic: Promise.resolve(true) });
      first.isPublic = addressesOf(host).then(
        (all) => (first.knownPublic = all.every(isPublicAddress)),
        () => (first.knownPublic = true),
      );
    }
    if (host === start.host || !(await start.isPublic)) return next(request);
    const internal = await privateAddressOf(host);
    if (internal !== undefined) {
      throw new HttpError(
        'private-address',
        `${request.url} is on ${host}, which resolves to ${internal}, a private address, while the run started on the public host ${start.host}: not requested (pass --allow-private-addresses to allow it)`,
        request.url,
      );
    }
    return next(request);
  };
  /** The connection's own answer, refused when it names a private address the layer would refuse. */
  const guardedLookup = ((hostname: string, options: LookupAllOptions, callback: LookupAllCallback) => {
    connectLookup(hostname, options, (error, address: string | LookupAddress[], family?: number) => {
      if (error) return callback(error, address, family);
      const answered = typeof address === 'string' ? [{ address, family: family ?? 4 }] : address;
      const guarded = start?.knownPublic === true && hostOf(`http://${hostname}/`) !== start.host;
      const internal = guarded ? answered.find((found) => !isPublicAddress(found.address)) : undefined;
      if (internal === undefined) return callback(null, address, family);
      const refusal = Object.assign(
        new Error(
          `${hostname} resolved to ${internal.address}, a private address, when connecting (it resolved to a public one just before), while the run started on the public host ${start!.host}: not requested (pass --allow-private-addresses to allow it)`,
        ),
        { code: PRIVATE_ADDRESS_CODE },
      );
      callback(refusal, [] as LookupAddress[]);
    });
  }) as unknown as LookupFunction;
  return { layer, lookup: guardedLookup };
}

/** The first host requested; `knownPublic` once its addresses say it is public. */
interface StartHost {
  host: string;
  isPublic: Promise<boolean>;
  knownPublic?: boolean;
}

type LookupAllCallback = (
  error: NodeJS.ErrnoException | null,
  address: LookupAddress[] | string,
  family?: number,
) => void;

/** How long a host's verdict is kept: about a DNS record's usual lifetime. */
const VERDICT_TTL_MS = 60_000;
const MAX_VERDICTS = 10_000;

async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((found) => found.address);
}

/** The host of `url` as the resolver takes it: IPv6 literals without their brackets. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return undefined;
  }
}

/**
 * True for an address on the public internet; false for loopback, private (RFC 1918), shared
 * (CGNAT), link-local, unique-local (fc00::/7), unspecified, multicast, reserved and documentation
 * ranges, and for IPv6 forms that carry such an IPv4 address (mapped, compatible, NAT64, 6to4).
 */
export function isPublicAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) return isPublicIpv4(ipv4Octets(address));
  if (kind === 6) return isPublicIpv6(ipv6Words(address));
  return false;
}

function ipv4Octets(address: string): number[] {
  return address.split('.').map(Number);
}

function isPublicIpv4([a, b, c]: number[]): boolean {
  if (a === 0 || a === 10 || a === 127 || a! >= 224) return false; // this network, private, loopback, multicast, reserved
  if (a === 100 && b! >= 64 && b! <= 127) return false; // shared address space (CGNAT)
  if (a === 169 && b === 254) return false; // link-local (cloud metadata services)
  if (a === 172 && b! >= 16 && b! <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return false; // IETF protocol assignments, TEST-NET-1
  if (a === 198 && (b === 18 || b === 19)) return false; // benchmarking
  if ((a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return false; // TEST-NET-2, -3
  return true;
}

/** The eight 16-bit words of an IPv6 address (with `::` expanded and a trailing IPv4 part split). */
function ipv6Words(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, ''); // no zone id
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = ipv4Octets(dotted[1]!);
    text = `${text.slice(0, -dotted[1]!.length)}${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((word) => parseInt(word, 16));
}

function isPublicIpv6(w: number[]): boolean {
  const embedded = (hi: number, lo: number) => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];
  if (w.slice(0, 6).every((x) => x === 0)) return false; // ::, ::1 and IPv4-compatible: never public
  if (w.slice(0, 5).every((x) => x === 0) && w[5] === 0xffff) return isPublicIpv4(embedded(w[6]!, w[7]!)); // mapped
  if (w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0))
    return isPublicIpv4(embedded(w[6]!, w[7]!)); // NAT64
  if (w[0] === 0x2002) return isPublicIpv4(embedded(w[1]!, w[2]!)); // 6to4
  if ((w[0]! & 0xfe00) === 0xfc00) return false; // unique local
  if ((w[0]! & 0xffc0) === 0xfe80 || (w[0]! & 0xffc0) === 0xfec0) return false; // link-local, site-local
  if ((w[0]! & 0xff00) === 0xff00) return false; // multicast
  if (w[0] === 0x2001 && w[1] === 0x0db8) return false; // documentation
  if (w[0] === 0x100 && w.slice(1, 4).every((x) => x === 0)) return false; // discard-only
  return true;
}
