import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../index.css';
import { Providers } from './providers';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <Providers />
  </StrictMode>,
);
