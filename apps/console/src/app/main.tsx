import '../index.css';
import { startConsole } from './boot/start-console';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

void startConsole(container);
