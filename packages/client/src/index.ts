export * from './cancellation';
export * from './errors';
export * from './events';
export * from './pages';
export * from './rest';
export * from './retry';
