/** One callback to make. */
export interface OutboundRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export type SendOutcome =
  | {
      kind: 'response';
      statusCode: number;
      headers: Record<string, string | string[] | undefined>;
      /** At most the sender's body limit, decoded as UTF-8. */
      body: string;
      bodyTruncated: boolean;
      durationMs: number;
    }
  | {
      kind: 'error';
      message: string;
      /** Refused by the SSRF policy before or while connecting. */
      blocked: boolean;
      timedOut: boolean;
      /** The transport's error code (ECONNREFUSED, ENOTFOUND, CERT_HAS_EXPIRED, ...), when it gave one. */
      code?: string | undefined;
      durationMs: number;
    };

/** Makes one HTTP attempt; never throws for anything the receiver or the network does. */
export interface HttpSender {
  send(request: OutboundRequest, signal?: AbortSignal): Promise<SendOutcome>;
}
