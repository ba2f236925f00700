import '../index.css';
import { loadEnglishMessages } from '@settlement/protocol';
import { startConsole } from './boot/start-console';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// Before any schema parses: the console's only zod is zod/mini, which loads no locale.
loadEnglishMessages();
void startConsole(container);
