/** The one HTTP layer: the client (as layers over undici) and the rules every sitemap fetch keeps. */
export { HttpClient, HttpError, isHtmlContentType, overHttp, parseRetryAfter, RetryState } from './client.js';
export type {
  HttpErrorKind,
  HttpOptions,
  HttpResponse,
  Redirect,
  RequestOptions,
  RetryNotice,
  Transfer,
} from './client.js';
export type { FetchedResponse, SitemapFetcher } from './sitemap-fetch.js';
