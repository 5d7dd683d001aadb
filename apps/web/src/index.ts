export { serveWebInterface, WEB_ROUTES, webAssetsDirectory } from './serve-web-interface';
